/**
 * The full money chaos test on PostgreSQL: 10,000 randomized operations (CHAOS_OPS to change) from
 * many clients while the server process is SIGKILLed at least 5 times (CHAOS_KILLS) and restarted.
 * `npm test` runs the same file in a bounded form (3,000 operations, 5 kills) in the PostgreSQL pass
 * of the API tests. Needs TEST_DATABASE_URL (an admin URL: each run makes and drops its own database).
 */
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_DATABASE_URL) {
  console.error(
    'test:chaos needs PostgreSQL: set TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres',
  );
  process.exit(1);
}
const ops = process.env.CHAOS_OPS ?? '10000';
console.info(
  `=== money chaos on PostgreSQL: ${ops} operations, at least ${process.env.CHAOS_KILLS ?? 5} SIGKILLs ===`,
);
const result = spawnSync('vitest', ['run', '--project', 'server', 'test/chaos/'], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DB: 'postgres', CHAOS_OPS: ops },
});
process.exit(result.status ?? 1);
