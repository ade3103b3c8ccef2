/**
 * Runs the server's API tests on embedded PGlite, then again on PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it), so every rule is proven on both databases.
 */
import { spawnSync } from 'node:child_process';

const extra = process.argv.slice(2);
const runs: Array<{ label: string; env: Record<string, string> }> = [
  { label: 'PGlite', env: { TEST_DB: 'pglite' } },
];
if (process.env.TEST_DATABASE_URL) runs.push({ label: 'PostgreSQL', env: { TEST_DB: 'postgres' } });
else console.info('TEST_DATABASE_URL is not set: API tests run on PGlite only.');

for (const run of runs) {
  console.info(`\n=== API tests on ${run.label} ===`);
  const result = spawnSync('vitest', ['run', '--project', 'server', ...extra], {
    stdio: 'inherit',
    env: { ...process.env, ...run.env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
