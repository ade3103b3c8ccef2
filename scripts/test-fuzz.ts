/**
 * The full contract fuzzer: 10,000 generated requests (FUZZ_REQUESTS to change) on embedded PGlite,
 * then again on PostgreSQL when TEST_DATABASE_URL is set. `npm test` runs the same file in a bounded
 * form (3,000 requests per database) as part of the API tests.
 */
import { spawnSync } from 'node:child_process';

const requests = process.env.FUZZ_REQUESTS ?? '10000';
const runs: Array<{ label: string; env: Record<string, string> }> = [
  { label: 'PGlite', env: { TEST_DB: 'pglite' } },
];
if (process.env.TEST_DATABASE_URL) runs.push({ label: 'PostgreSQL', env: { TEST_DB: 'postgres' } });
else console.info('TEST_DATABASE_URL is not set: the fuzzer runs on PGlite only.');

for (const run of runs) {
  console.info(`\n=== contract fuzzer on ${run.label}: ${requests} requests ===`);
  const result = spawnSync('vitest', ['run', '--project', 'server', 'test/fuzz/'], {
    stdio: 'inherit',
    env: { ...process.env, ...run.env, FUZZ_REQUESTS: requests },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
