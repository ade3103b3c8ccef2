/**
 * The money door's shape (docs/decisions/money-door.md): one function per kind of a person's call,
 * each taking its call as named fields, all sharing one prologue and one epilogue with the operator's
 * refund; and one store of idempotency keys, the ledger's transfers keeping none of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';

describe(`the money door's shape (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function functionsNamed(name: string) {
    const { rows } = await server.ctx.db.query<{ args: string; source: string }>(
      `SELECT pg_get_function_identity_arguments(p.oid) AS args, p.prosrc AS source
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = current_schema() AND p.proname = $1`,
      [name],
    );
    return rows;
  }

  it('has one door per kind, each taking its call as one jsonb of named fields', async () => {
    for (const door of ['ledger_pay', 'ledger_exchange', 'ledger_goal']) {
      const defined = await functionsNamed(door);
      expect(defined, door).toHaveLength(1);
      expect(defined[0]!.args, door).toMatch(/^call jsonb(, rules jsonb)?, pin_proof bytea$/);
    }
  });

  it('shares one prologue and one epilogue between the doors and the operator’s refund', async () => {
    for (const door of ['ledger_pay', 'ledger_exchange', 'ledger_goal', 'ops_refund']) {
      const [defined] = await functionsNamed(door);
      for (const part of ['door_lock(', 'door_claim(', 'door_answer('])
        expect(defined!.source, `${door} asks ${part}`).toContain(part);
      // The people's lock and the key's claim are the prologue's alone.
      expect(defined!.source, door).not.toMatch(/FOR NO KEY UPDATE OF u|idempotency_claim\(/);
    }
  });

  it('keeps idempotency keys in one store: a ledger transfer has none of its own', async () => {
    const { rows: columns } = await server.ctx.db.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'ledger_transfers'`,
    );
    expect(columns.map((c) => c.name)).not.toContain('idempotency_key');
    const { rows: unique } = await server.ctx.db.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = 'ledger_transfers' AND indexdef LIKE 'CREATE UNIQUE%'`,
    );
    expect(unique.map((i) => i.name)).toEqual(['ledger_transfers_pkey']);
  });
});
