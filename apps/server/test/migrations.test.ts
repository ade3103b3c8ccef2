/**
 * Migrations that move data, run against a database left by the migrations before them (on
 * in-memory PGlite: the SQL is the same on PostgreSQL, which every other test migrates from zero).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPglite, type Queryable } from '../src/db/client.ts';
import { migrationFiles } from '../src/db/migrate.ts';
import { listNotifications } from '../src/modules/notifications/service.ts';
import { ledgerViolations } from './fund.ts';

const DIR = new URL('../src/db/migrations/', import.meta.url);
const apply = (db: { exec(sql: string): Promise<void> }, name: string) =>
  db.exec(readFileSync(new URL(name, DIR), 'utf8'));

/** Two people with a RUB account each, written as the migrations before the one under test left them. */
async function annAndBob(db: Queryable) {
  const people = {
    ann: '11111111-1111-4111-8111-111111111111',
    bob: '22222222-2222-4222-8222-222222222222',
    annRub: 'aaaaaaaa-1111-4111-8111-111111111111',
    bobRub: 'bbbbbbbb-2222-4222-8222-222222222222',
  };
  await db.query(
    `INSERT INTO users (id, first_name, last_name, phone, email, created_at)
     VALUES ($1, 'Анна', 'А', '+79990000001', 'ann@example.com', now()),
            ($2, 'Борис', 'Б', '+79990000002', 'bob@example.com', now())`,
    [people.ann, people.bob],
  );
  await db.query(
    `INSERT INTO ledger_accounts (id, user_id, purpose, currency, created_at)
     VALUES ($1, $2, 'user', 'RUB', now()), ($3, $4, 'user', 'RUB', now())`,
    [people.annRub, people.ann, people.bobRub, people.bob],
  );
  return people;
}

describe('migrations', () => {
  it('0053 keeps the money notifications and their read marks, now read from the ledger', async () => {
    const db = await openPglite('memory');
    try {
      const files = migrationFiles();
      const target = files.indexOf('0053_money_notices_from_entries.sql');
      for (const name of files.slice(0, target)) await apply(db, name);

      const { ann, bob, annRub, bobRub } = await annAndBob(db);
      // Movements as 0052's ledger_open wrote them, with their notification rows.
      const open = (
        debit: string,
        credit: string,
        amount: number,
        kind: string,
        key: string,
        at: string,
        keys: string[],
      ) =>
        db.query(
          `SELECT outcome FROM ledger_open(gen_random_uuid(), $1, $2, $3, 'RUB', $4, false, $5, null, null, null, $6,
             ARRAY['debit', 'credit'], ARRAY['money_out', 'money_in'], $7::text[])`,
          [debit, credit, amount, kind, key, at, keys],
        );
      const adjustments = (
        await db.query<{ id: string }>(
          `SELECT id FROM ledger_accounts WHERE purpose = 'adjustments' AND currency = 'RUB'`,
        )
      ).rows[0]!.id;
      await open(adjustments, annRub, 10_000, 'topup', 'k1', '2026-11-01T10:00:00Z', [
        'money_out',
        'money_in_topup',
      ]);
      await open(annRub, bobRub, 2_500, 'transfer', 'k2', '2026-11-01T11:00:00Z', [
        'money_out_transfer',
        'money_in_transfer',
      ]);
      await db.query(
        `INSERT INTO notifications (user_id, kind, message_key, params, created_at)
         VALUES ($1, 'registration', 'registration', '{"first_name": "Анна"}', '2026-11-01T09:00:00Z')`,
        [ann],
      );
      await db.query(
        `UPDATE notifications SET read_at = '2026-11-02T00:00:00Z'
         WHERE user_id = $1 AND message_key IN ('registration', 'money_in_topup')`,
        [ann],
      );
      const before = async (user: string) =>
        (
          await db.query<{ message_key: string; read: boolean }>(
            'SELECT message_key, read_at IS NOT NULL AS read FROM notifications WHERE user_id = $1 ORDER BY created_at DESC',
            [user],
          )
        ).rows.map((r) => `${r.message_key} ${r.read ? 'read' : 'unread'}`);
      expect(await before(ann)).toEqual([
        'money_out_transfer unread',
        'money_in_topup read',
        'registration read',
      ]);

      for (const name of files.slice(target)) await apply(db, name);

      const after = async (user: string) => {
        const page = await listNotifications(db, user, { limit: 20, language: 'ru' });
        return {
          unread: page.unread,
          list: page.results.map((n) => `${n.message} ${n.is_read ? 'read' : 'unread'}`),
        };
      };
      expect(await after(ann)).toEqual({
        unread: 1,
        list: [
          'Перевод 25,00\u00a0₽ unread',
          'Кошелёк пополнен на 100,00\u00a0₽ read',
          'Добро пожаловать в E-Wallet, Анна! Рублёвый счёт открыт. read',
        ],
      });
      expect(await after(bob)).toEqual({ unread: 1, list: ['Вам поступил перевод 25,00\u00a0₽ unread'] });
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notifications WHERE kind IN ('money_in', 'money_out')`,
      );
      expect(rows[0]!.n).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('0058 keeps on each account the outgoing sum of its latest month, as its entries say', async () => {
    const db = await openPglite('memory');
    try {
      const files = migrationFiles();
      const target = files.indexOf('0058_ledger_monthly_outgoing.sql');
      for (const name of files.slice(0, target)) await apply(db, name);

      const { ann, annRub, bobRub } = await annAndBob(db);
      const system = async (purpose: string) =>
        (
          await db.query<{ id: string }>(
            `SELECT id FROM ledger_accounts WHERE purpose = $1 AND currency = 'RUB'`,
            [purpose],
          )
        ).rows[0]!.id;
      const [adjustments, payouts, external] = await Promise.all(
        ['adjustments', 'payout_clearing', 'external_payments'].map(system),
      );
      // Movements as 0057's ledger_open wrote them.
      let n = 0;
      const open = async (
        debit: string,
        credit: string,
        amount: number,
        kind: string,
        at: string,
        hold = false,
      ) => {
        const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
        await db.query(
          `SELECT outcome FROM ledger_open($1, $2, $3, $4, 'RUB', $5, $6, $7, null, null, null, $8)`,
          [id, debit, credit, amount, kind, hold, `k${n}`, at],
        );
        return id;
      };
      await open(adjustments!, annRub, 100_000, 'topup', '2026-10-01T10:00:00Z');
      await open(annRub, external!, 1_000, 'payment', '2026-10-20T10:00:00Z'); // October
      const held = await open(annRub, payouts!, 3_000, 'withdrawal', '2026-10-31T21:00:00Z', true); // November
      await open(annRub, bobRub, 2_500, 'transfer', '2026-11-02T10:00:00Z');
      await open(annRub, external!, 700, 'fee', '2026-11-03T10:00:00Z'); // not counted
      const voided = await open(annRub, payouts!, 400, 'withdrawal', '2026-11-04T10:00:00Z', true);
      await db.query(`SELECT outcome FROM ledger_settle($1, 'voided', '2026-11-05T10:00:00Z')`, [voided]);

      for (const name of files.slice(target)) await apply(db, name);

      const kept = await db.query<{ id: string; outgoing_month: Date | null; outgoing_in_month: bigint }>(
        'SELECT id, outgoing_month, outgoing_in_month FROM ledger_accounts WHERE user_id IS NOT NULL ORDER BY id',
      );
      expect(kept.rows).toEqual([
        { id: annRub, outgoing_month: new Date('2026-10-31T21:00:00Z'), outgoing_in_month: 5_500n },
        { id: bobRub, outgoing_month: null, outgoing_in_month: 0n },
      ]);
      expect(await ledgerViolations(db)).toEqual([]);
      // And from here the ledger keeps it: the pending hold posted changes nothing, a payment adds.
      await db.query(`SELECT outcome FROM ledger_settle($1, 'posted', '2026-11-06T10:00:00Z')`, [held]);
      await open(annRub, external!, 100, 'payment', '2026-11-07T10:00:00Z');
      const { rows } = await db.query<{ sum: bigint }>(
        `SELECT ledger_outgoing_rub($1, '2026-10-31T21:00:00Z') AS sum`,
        [ann],
      );
      expect(rows[0]!.sum).toBe(5_600n);
      expect(await ledgerViolations(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
