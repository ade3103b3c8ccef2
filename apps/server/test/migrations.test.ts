/**
 * The schema at start-up (db/migrate.ts): numbered migrations once, the function files again whenever
 * they change, several instances at once, and a database of another build refused whole. On in-memory
 * PGlite, and on PostgreSQL where instances race.
 */
import { describe, expect, it } from 'vitest';
import { openPglite, openPostgres } from '../src/db/client.ts';
import { functionFiles, migrate, migrationFiles, SchemaError } from '../src/db/migrate.ts';
import { freshDatabase, usePostgres } from './helpers.ts';

describe('the schema', () => {
  it('applies every migration and function file once, and nothing on a second start', async () => {
    const db = await openPglite('memory');
    try {
      const applied = await migrate(db);
      expect(applied).toEqual([...migrationFiles(), ...functionFiles().map((name) => `functions/${name}`)]);
      expect(await migrate(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('applies a function file again when its text changed, and only that file', async () => {
    const db = await openPglite('memory');
    try {
      await migrate(db);
      await db.query("UPDATE schema_functions SET checksum = 'older' WHERE name = 'limits.sql'");
      // What the older text defined is replaced by the file's definition.
      await db.exec(
        'CREATE OR REPLACE FUNCTION limits_counts_outgoing(kind text, currency text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT false $$',
      );
      expect(await migrate(db)).toEqual(['functions/limits.sql']);
      const { rows } = await db.query<{ counts: boolean }>(
        "SELECT limits_counts_outgoing('transfer', 'RUB') AS counts",
      );
      expect(rows[0]!.counts).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('defines each SQL function in exactly one file', async () => {
    const db = await openPglite('memory');
    try {
      await migrate(db);
      const { rows } = await db.query<{ name: string; n: number }>(
        `SELECT p.proname AS name, count(*)::int AS n FROM pg_proc p JOIN pg_namespace s ON s.oid = p.pronamespace
         WHERE s.nspname = 'public' GROUP BY p.proname HAVING count(*) > 1`,
      );
      expect(rows).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('refuses a database made by another build, and changes nothing in it', async () => {
    const db = await openPglite('memory');
    try {
      // An older build recorded migrations this one does not have.
      await db.exec(`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
        INSERT INTO schema_migrations (name) VALUES ('0001_users.sql'), ('0061_transfers_without_account_keys.sql');
        CREATE TABLE users (id uuid PRIMARY KEY)`);
      await expect(migrate(db)).rejects.toThrow(SchemaError);
      await expect(migrate(db)).rejects.toThrow(/another build of E-Wallet/);
      const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(rows.map((r) => r.name)).toEqual(['0001_users.sql', '0061_transfers_without_account_keys.sql']);
      const tables = await db.query("SELECT 1 FROM pg_tables WHERE tablename = 'ledger_accounts'");
      expect(tables.rows).toHaveLength(0);
    } finally {
      await db.close();
    }
  });

  it.runIf(usePostgres)('lets several instances start on one empty database at once', async () => {
    const database = await freshDatabase();
    const instances = await Promise.all(Array.from({ length: 4 }, () => openPostgres(database.url, 2)));
    try {
      const applied = await Promise.all(instances.map((db) => migrate(db)));
      // Exactly one of them applied the schema; the others found it done.
      expect(applied.filter((files) => files.length > 0)).toHaveLength(1);
      expect(await migrate(instances[0]!)).toEqual([]);
    } finally {
      await Promise.all(instances.map((db) => db.close()));
      await database.drop();
    }
  });
});
