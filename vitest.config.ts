import { defineConfig } from 'vitest/config';

// One runner, four projects: the contract's and the app's unit tests, the server's API tests, and the
// repository's own checks (docs that match the code, file sizes, citations).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      // The checks parse the server's code once per file: on a busy machine that takes seconds.
      { test: { name: 'repo', root: '.', include: ['scripts/checks/*.test.ts'], testTimeout: 60_000 } },
      {
        extends: 'apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./test/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
