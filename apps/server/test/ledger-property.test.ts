/**
 * Property-based tests (fast-check): random sequences of ledger operations run against the real
 * database and against a tiny model; after every sequence the balances match the model and the
 * ledger's invariants hold (balances = sums of entries, every currency sums to zero, no user account
 * below zero, holds settled at most once). Every door of the ledger is driven: transfer, hold, postHold,
 * voidHold, a person's money call (`ledger_pay`: to a person, held toward payout clearing, an exchange
 * of a quote) and an operator's refund (`ops_refund`). History pages and statistics are checked the
 * same way.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceOf,
  hold,
  openDoor,
  postHold,
  systemAccount,
  type TransferInput,
  transfer,
  userAccount,
  voidHold,
} from '../src/ledger/index.ts';
import { statOf, transactionsOf } from '../src/modules/wallet/service.ts';
import { type PaymentInput, pay } from './door.ts';
import { fund, insertUser, ledgerViolations } from './fund.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';

type Op =
  | { type: 'fund'; user: number; amount: bigint }
  | { type: 'transfer'; from: number; to: number; amount: bigint }
  | { type: 'pay'; user: number; amount: bigint }
  | { type: 'hold'; user: number; amount: bigint }
  | { type: 'post'; hold: number }
  | { type: 'void'; hold: number }
  | { type: 'payPerson'; from: number; to: number; amount: bigint }
  | { type: 'payOut'; user: number; amount: bigint }
  | { type: 'exchange'; user: number; amount: bigint }
  | { type: 'refund'; payment: number; amount: bigint }
  | { type: 'repeat'; op: number };

const USERS = 3;
const amount = fc.bigInt({ min: 1n, max: 5_000n });
const user = fc.integer({ min: 0, max: USERS - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ type: fc.constant('fund' as const), user, amount }),
  fc.record({ type: fc.constant('transfer' as const), from: user, to: user, amount }),
  fc.record({ type: fc.constant('pay' as const), user, amount }),
  fc.record({ type: fc.constant('hold' as const), user, amount }),
  fc.record({ type: fc.constant('payPerson' as const), from: user, to: user, amount }),
  fc.record({ type: fc.constant('payOut' as const), user, amount }),
  fc.record({ type: fc.constant('exchange' as const), user, amount }),
  fc.record({ type: fc.constant('refund' as const), payment: fc.nat({ max: 20 }), amount }),
  fc.record({
    type: fc.constantFrom('post' as const, 'void' as const),
    hold: fc.nat({ max: 20 }),
  }) as fc.Arbitrary<Op>,
  fc.record({ type: fc.constant('repeat' as const), op: fc.nat({ max: 40 }) }),
);

describe(`ledger properties (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    const violations = await ledgerViolations(server.ctx.db);
    await server.close();
    expect(violations).toEqual([]);
  });

  const PIN_PROOF = Buffer.alloc(32, 3);
  let key = 0;
  const nextKey = () => `property-test:${process.pid}:${++key}`;
  const now = () => server.clock.now();

  it('random operation sequences keep balances equal to the model and every invariant', async () => {
    const payments = await systemAccount(server.ctx.db, 'RUB', 'external_payments');
    const payouts = await systemAccount(server.ctx.db, 'RUB', 'payout_clearing');
    // Two operators for the refund door's four eyes.
    const { rows: operators } = await server.ctx.db.query<{ id: string }>(
      `INSERT INTO operators (email, role, password_hash, totp_sealed, created_at, updated_at)
       SELECT 'property-' || g || '-' || $1 || '@example.com', 'finance', '-', '\\x00', now(), now()
       FROM generate_series(1, 2) g RETURNING id`,
      [process.pid],
    );
    const [proposer, approver] = operators.map((o) => o.id) as [string, string];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const users = await Promise.all(
          Array.from({ length: USERS }, async () => {
            const id = await server.ctx.db.tx((q) => insertUser(q, { at: now() }));
            // Full level (no monthly limit) with a known PIN hash, so `pay` decides on money alone.
            await server.ctx.db.query(
              "UPDATE users SET identification_level = 'full', pin_hash = $2 WHERE id = $1",
              [id, PIN_PROOF],
            );
            return { id, account: (await userAccount(server.ctx.db, id, 'RUB'))!.id };
          }),
        );
        // The model: posted balance and held money per user, and the holds with their state.
        const posted = users.map(() => 0n);
        const held = users.map(() => 0n);
        // Dollars each user received by exchanges: one cent for every 100 kopecks (the quotes' own figures).
        const dollars = users.map(() => 0n);
        // Completed payments between people, with what is left of each to refund.
        const paidToPeople: Array<{ id: string; from: number; to: number; left: bigint }> = [];
        const holds: Array<{
          id: string;
          user: number;
          amount: bigint;
          state: 'pending' | 'posted' | 'voided';
        }> = [];
        const sent: Array<{ input: TransferInput; isHold: boolean } | { payment: PaymentInput }> = [];

        for (const step of ops) {
          server.clock.advance(1);
          if (step.type === 'fund') {
            await fund(server.ctx, users[step.user]!.id, step.amount);
            posted[step.user]! += step.amount;
            continue;
          }
          if (step.type === 'post' || step.type === 'void') {
            const target = holds[step.hold % Math.max(1, holds.length)];
            if (!target) continue;
            const settle = step.type === 'post' ? postHold : voidHold;
            const wanted = step.type === 'post' ? 'posted' : 'voided';
            const attempt = server.ctx.db.tx((q) => settle(q, target.id, now()));
            if (target.state === 'pending') {
              expect((await attempt).changed).toBe(true);
              target.state = wanted;
              held[target.user]! -= target.amount;
              if (wanted === 'posted') posted[target.user]! -= target.amount;
            } else if (target.state === wanted) {
              expect((await attempt).changed).toBe(false);
            } else {
              await expect(attempt).rejects.toThrow(/hold already/);
            }
            continue;
          }
          if (step.type === 'repeat') {
            const first = sent[step.op % Math.max(1, sent.length)];
            if (!first) continue;
            if ('payment' in first) {
              const again = await pay(server.ctx.db, { ...first.payment, id: randomUUID(), at: now() });
              expect(again).toEqual({ outcome: 'repeated', requestHash: 'request', answer: { first: true } });
              continue;
            }
            const again = await server.ctx.db.tx((q) => (first.isHold ? hold : transfer)(q, first.input));
            expect(again.created).toBe(false);
            continue;
          }
          if (step.type === 'exchange') {
            const receive = step.amount / 100n;
            if (receive < 1n) continue;
            const quoteId = randomUUID();
            await server.ctx.db.query(
              `INSERT INTO exchange_quotes (id, user_id, from_currency, to_currency, amount, fee, receive_amount, rate,
                 created_at, expires_at) VALUES ($1, $2, 'RUB', 'USD', $3, 0, $4, 0.01, $5, $5::timestamptz + interval '30 seconds')`,
              [quoteId, users[step.user]!.id, step.amount, receive, now()],
            );
            const exchanged = await openDoor(
              server.ctx.db,
              {
                door: 'exchange',
                quoteId,
                person: users[step.user]!.id,
                outId: randomUUID(),
                inId: randomUUID(),
                description: { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } },
                at: now(),
                rules: server.ctx.config.levelRulesJson,
              },
              {
                pinProof: PIN_PROOF,
                call: { name: 'exchange', key: nextKey(), requestHash: 'request', answer: { first: true } },
              },
            );
            if (posted[step.user]! - held[step.user]! < step.amount) {
              expect(exchanged).toEqual({ outcome: 'refused', refusal: { rule: 'insufficient_funds' } });
              continue;
            }
            expect(exchanged).toEqual({ outcome: 'created' });
            posted[step.user]! -= step.amount;
            dollars[step.user]! += receive;
            continue;
          }
          if (step.type === 'refund') {
            const original = paidToPeople[step.payment % Math.max(1, paidToPeople.length)];
            if (!original) continue;
            const { rows } = await server.ctx.db.query<{ id: string }>(
              `INSERT INTO ops_refunds (transfer_id, amount, currency, reason, proposed_by, proposed_at)
               VALUES ($1, $2, 'RUB', 'property', $3, $4) RETURNING id`,
              [original.id, step.amount, proposer, now()],
            );
            const refunded = await openDoor(
              server.ctx.db,
              {
                door: 'refund',
                refundId: rows[0]!.id,
                approver,
                movementId: randomUUID(),
                description: { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } },
                at: now(),
                rules: server.ctx.config.levelRulesJson,
              },
              {
                pinProof: null,
                call: { name: 'opsRefundApprove', key: null, requestHash: '', answer: null },
              },
            );
            if (step.amount > original.left) {
              expect(refunded).toMatchObject({ outcome: 'refused', refusal: { rule: 'refund_exceeds' } });
              continue;
            }
            if (posted[original.to]! - held[original.to]! < step.amount) {
              expect(refunded).toEqual({ outcome: 'refused', refusal: { rule: 'insufficient_funds' } });
              continue;
            }
            expect(refunded).toEqual({ outcome: 'created' });
            original.left -= step.amount;
            posted[original.to]! -= step.amount;
            posted[original.from]! += step.amount;
            continue;
          }
          if (step.type === 'payPerson' || step.type === 'payOut') {
            const from = step.type === 'payPerson' ? step.from : step.user;
            const to = step.type === 'payPerson' ? step.to : null;
            if (to === from) continue;
            const payment: PaymentInput = {
              id: randomUUID(),
              payer: users[from]!.id,
              payee: to === null ? null : users[to]!.id,
              currency: 'RUB',
              amount: step.amount,
              kind: to === null ? 'withdrawal' : 'transfer',
              description: { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } },
              at: now(),
              rules: server.ctx.config.levelRulesJson,
              pinProof: PIN_PROOF,
              call: { name: 'transfer', key: nextKey(), requestHash: 'request', answer: { first: true } },
            };
            const paid = await pay(server.ctx.db, payment);
            if (posted[from]! - held[from]! < step.amount) {
              expect(paid).toEqual({ outcome: 'refused', refusal: { rule: 'insufficient_funds' } });
              continue;
            }
            expect(paid).toEqual({ outcome: 'created' });
            sent.push({ payment });
            if (to === null) {
              held[from]! += step.amount;
              holds.push({ id: payment.id, user: from, amount: step.amount, state: 'pending' });
            } else {
              posted[from]! -= step.amount;
              posted[to]! += step.amount;
              paidToPeople.push({ id: payment.id, from, to, left: step.amount });
            }
            continue;
          }
          const from = step.type === 'transfer' ? step.from : step.user;
          const to = step.type === 'transfer' ? step.to : null;
          if (to === from) continue;
          const isHold = step.type === 'hold';
          const input: TransferInput = {
            debit: users[from]!.account,
            credit: to === null ? (isHold ? payouts.id : payments.id) : users[to]!.account,
            amount: step.amount,
            currency: 'RUB',
            kind: isHold ? 'withdrawal' : step.type === 'pay' ? 'payment' : 'transfer',
            idempotencyKey: nextKey(),
            at: now(),
          };
          const attempt = server.ctx.db.tx((q) => (isHold ? hold : transfer)(q, input));
          if (posted[from]! - held[from]! < step.amount) {
            await expect(attempt).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
            continue;
          }
          const result = await attempt;
          sent.push({ input, isHold });
          if (isHold) {
            held[from]! += step.amount;
            holds.push({ id: result.transfer.id, user: from, amount: step.amount, state: 'pending' });
          } else {
            posted[from]! -= step.amount;
            if (to !== null) posted[to]! += step.amount;
          }
        }

        for (const [index, u] of users.entries()) {
          const balance = await balanceOf(server.ctx.db, u.account);
          expect(balance.balance).toBe(posted[index]);
          expect(balance.pendingDebits).toBe(held[index]);
          expect(balance.available >= 0n).toBe(true);
          const usd = await userAccount(server.ctx.db, u.id, 'USD');
          expect(usd ? (await balanceOf(server.ctx.db, usd.id)).balance : 0n).toBe(dollars[index]);
        }
        expect(await ledgerViolations(server.ctx.db)).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it('history pages of any size return every transaction exactly once; statistics sum to their total', async () => {
    const owner = await server.ctx.db.tx((q) => insertUser(q, { at: now() }));
    const account = (await userAccount(server.ctx.db, owner, 'RUB'))!.id;
    const sink = await systemAccount(server.ctx.db, 'RUB', 'external_payments');
    const ids: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ amount, gap: fc.constantFrom(0, 0, 1, 1000), out: fc.boolean() }), {
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        async (moves, pageSize, descending) => {
          for (const move of moves) {
            server.clock.advance(move.gap);
            if (move.out) {
              const available = (await balanceOf(server.ctx.db, account)).available;
              if (available < move.amount) continue;
              const { transfer: t } = await server.ctx.db.tx((q) =>
                transfer(q, {
                  debit: account,
                  credit: sink.id,
                  amount: move.amount,
                  currency: 'RUB',
                  kind: 'payment',
                  idempotencyKey: nextKey(),
                  at: now(),
                }),
              );
              ids.push(t.id);
            } else {
              ids.push((await fund(server.ctx, owner, move.amount)).id);
            }
          }
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let pages = 0; pages <= ids.length + 1; pages++) {
            const page = await transactionsOf(
              server.ctx.db,
              owner,
              { limit: String(pageSize), cursor, ordering: descending ? '-created_at' : 'created_at' },
              'ru',
            );
            expect(page.results.length).toBeLessThanOrEqual(pageSize);
            seen.push(...page.results.map((t) => t.id));
            if (!page.next) break;
            cursor = page.next;
          }
          expect(seen.length).toBe(ids.length);
          expect(new Set(seen)).toEqual(new Set(ids));

          const stat = await statOf(server.ctx.db, owner, {});
          const cents = (text: string) => BigInt(text.replace('.', ''));
          expect(stat.results.reduce((sum, r) => sum + cents(r.amount), 0n)).toBe(cents(stat.total));
          const percentSum = stat.results.reduce((sum, r) => sum + r.percent, 0);
          expect(percentSum).toBe(cents(stat.total) === 0n ? 0 : 100);
        },
      ),
      { numRuns: 20 },
    );
  });
});
