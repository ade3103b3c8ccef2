/**
 * Plain SQL migrations, numbered files in ./migrations, applied in order at start-up and recorded
 * in schema_migrations. An advisory lock lets several server instances start on one database.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.ts';

const DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_ID = 804_017_001;

export function migrationFiles(): string[] {
  return readdirSync(DIR)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

export async function migrate(db: Db): Promise<string[]> {
  return db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await q.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await q.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    const applied: string[] = [];
    for (const name of migrationFiles()) {
      if (done.has(name)) continue;
      const sql = readFileSync(DIR + name, 'utf8');
      await q.exec(sql);
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      applied.push(name);
    }
    return applied;
  });
}
