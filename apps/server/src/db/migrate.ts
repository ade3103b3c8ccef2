/**
 * The database's schema at start-up, under one advisory lock so that instances starting together take
 * turns, in one transaction so that a failure leaves nothing half-applied:
 * - migrations/NNNN_name.sql: tables, indexes and data, each applied once, in order, recorded in
 *   schema_migrations;
 * - functions/name.sql: the SQL functions (and the triggers that call them), each function defined in
 *   one file with CREATE OR REPLACE, applied again whenever the file's checksum changes (as Flyway's
 *   repeatable migrations). A file that changes a function's arguments drops the old one first.
 * A database holding a migration this build does not have (an older build's, before the baseline) is
 * refused with one line, never migrated.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.ts';

const MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url));
const FUNCTIONS = fileURLToPath(new URL('./functions/', import.meta.url));
const LOCK_ID = 804_017_001;

export class SchemaError extends Error {}

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

export function functionFiles(): string[] {
  return readdirSync(FUNCTIONS)
    .filter((name) => /^[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

/** Applies what is missing or changed; answers the files applied. */
export async function migrate(db: Db): Promise<string[]> {
  return db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await q.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE IF NOT EXISTS schema_functions (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const files = migrationFiles();
    const done = new Set(
      (await q.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    const unknown = [...done].filter((name) => !files.includes(name));
    if (unknown.length > 0) {
      throw new SchemaError(
        `The database holds migrations this build does not know (${unknown.slice(0, 3).join(', ')}): it was made by another build of E-Wallet. Use an empty database (or DATA_DIR) for this one.`,
      );
    }
    const applied: string[] = [];
    for (const name of files) {
      if (done.has(name)) continue;
      await q.exec(readFileSync(MIGRATIONS + name, 'utf8'));
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      applied.push(name);
    }
    const checksums = new Map(
      (
        await q.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_functions')
      ).rows.map((r) => [r.name, r.checksum]),
    );
    for (const name of functionFiles()) {
      const sql = readFileSync(FUNCTIONS + name, 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      if (checksums.get(name) === checksum) continue;
      await q.exec(sql);
      await q.query(
        `INSERT INTO schema_functions (name, checksum, applied_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = EXCLUDED.applied_at`,
        [name, checksum],
      );
      applied.push(`functions/${name}`);
    }
    return applied;
  });
}
