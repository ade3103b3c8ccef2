import { calls } from '@e-wallet/contract';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The API and sandbox pages are served by apps/server; in development Vite forwards them there.
const api = process.env.API_ORIGIN ?? 'http://127.0.0.1:8080';

/**
 * `virtual:call-table`: method, path and access of every call, read from the contract at build
 * time. The app calls through the contract's table without shipping zod and the schemas to the
 * browser (they would double the sign-in page's JavaScript).
 */
function callTable(): Plugin {
  const id = 'virtual:call-table';
  return {
    name: 'e-wallet-call-table',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const table = Object.fromEntries(
        Object.entries(calls).map(([name, call]) => [
          name,
          { method: call.method, path: call.path, access: call.access, idempotent: 'idempotent' in call },
        ]),
      );
      return `export const callTable = ${JSON.stringify(table)};`;
    },
  };
}

export default defineConfig({
  plugins: [react(), callTable()],
  define: {
    __APP_VERSION__: JSON.stringify(process.env.APP_VERSION ?? process.env.npm_package_version ?? '0.0.1'),
    __BRAND__: JSON.stringify(process.env.BRAND ?? 'e-wallet'),
  },
  build: { target: 'es2022', sourcemap: false, assetsInlineLimit: 0 },
  server: {
    proxy: {
      '/v2': api,
      '/sandbox': api,
      '/version.json': api,
      '/docs': api,
    },
  },
});
