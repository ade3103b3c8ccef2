/**
 * Money chaos: many concurrent clients run randomized money operations against a real server process
 * on PostgreSQL (top-ups paid or declined on the sandbox page, with repeated and contradicting signed
 * webhooks; withdrawals to cards whose payouts settle or fail; transfers; QR payments; repeats of
 * acknowledged calls with the same Idempotency-Key), while the process is SIGKILLed at random moments
 * and restarted. A client that got no answer retries the same request with the same key until it does.
 *
 * Afterwards, once the providers have finished (a later instance's worker and status checks settle
 * what the kills left open): every currency's balances sum to zero, no user balance is negative, every
 * acknowledged operation exists exactly once, no idempotency key moved money twice, every hold is
 * settled or released, and every person's balance is exactly what their acknowledged operations say.
 *
 *   CHAOS_OPS    operations in all (default 3000: the bounded run inside `npm test`; `npm run test:chaos` 10,000)
 *   CHAOS_KILLS  SIGKILLs at least (default 5)
 *   CHAOS_SEED   the workload's seed
 * Skipped when TEST_DATABASE_URL is not set.
 */
import { randomUUID } from 'node:crypto';
import { formatAmount, walletQrText } from '@e-wallet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/create-context.ts';
import { type Db, openPostgres } from '../../src/db/client.ts';
import { runPayoutWorkerOnce } from '../../src/modules/payouts/worker.ts';
import { signPayload } from '../../src/providers/signature.ts';
import { fundPhone, ledgerViolations } from '../fund.ts';
import { rng } from '../fuzz/generate.ts';
import { TestClock } from '../helpers.ts';
import {
  type Answer,
  call,
  freePort,
  freshDatabase,
  register,
  type ServerProcess,
  startServer,
} from './process.ts';

// In the PostgreSQL pass of the API tests only (the PGlite pass has TEST_DB=pglite).
const enabled = process.env.TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;
const OPS = Number(process.env.CHAOS_OPS ?? 3000);
const MIN_KILLS = Number(process.env.CHAOS_KILLS ?? 5);
const SEED = Number(process.env.CHAOS_SEED ?? 8_675_309);
const CLIENTS = 16;
const START_RUB = 1_000_000n; // 10,000.00 each
const SECRET = 'chaos-webhook-secret-0123456789';
const PIN_KEY = 'chaos-pin-key-0123456789abcdef';
const GOOD_CARD = '4111 1111 1111 1111';
const DECLINED_CARD = '4000 0000 0000 0002';

interface Client {
  phone: string;
  token: string;
}

type Ack =
  | { kind: 'transfer' | 'payment'; key: string; id: string; from: string; to: string; minor: bigint }
  | { kind: 'withdrawal'; key: string; id: string; from: string; minor: bigint; card: string }
  | {
      kind: 'topup';
      key: string;
      order: string;
      payment: string;
      to: string;
      minor: bigint;
      paid: boolean | null;
    };

describe.skipIf(!enabled)('money chaos: randomized operations while the server is SIGKILLed', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let server: ServerProcess | null = null;
  let port = 0;
  let db: Db;
  const env = {
    TRUST_PROXY: '1',
    SANDBOX_PAYOUT_DELAY_MS: '150',
    WEBHOOK_SECRET: SECRET,
    PIN_KEY,
    SMS_PER_ADDRESS_PER_HOUR: '1000',
  };

  beforeAll(async () => {
    database = await freshDatabase();
    port = await freePort();
    server = await startServer({ databaseUrl: database.url, port, env });
    db = await openPostgres(database.url, 4);
  }, 90_000);
  let passed = false;
  afterAll(async () => {
    await server?.kill();
    await db?.close();
    // A failed run keeps its database for a look (its name is printed); a passed one drops it.
    if (passed || process.env.CI) await database?.drop();
    else if (database) console.info(`chaos: the failed run's database is kept: ${database.url}`);
  });

  it(`${OPS} operations from ${CLIENTS} clients survive at least ${MIN_KILLS} SIGKILLs with every kopeck`, async () => {
    const random = rng(SEED);
    const base = () => `http://127.0.0.1:${port}`;
    const clients: Client[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const c = await register(base(), { address: `192.0.2.${i + 10}` });
      await db.query(`UPDATE users SET identification_level = 'full' WHERE phone = $1`, [c.phone]);
      await fundPhone({ db, clock: { now: () => new Date() } }, c.phone, START_RUB);
      clients.push(c);
    }

    const acks: Ack[] = [];
    const stats = { ops: 0, retries: 0, refused: 0, repeats: 0, webhookRepeats: 0, kills: 0, restarts: 0 };
    const deadline = Date.now() + 20 * 60_000;

    /** Sends until the server answers (below 500); every retry carries the same key and body. */
    async function answered(send: () => Promise<Answer>): Promise<Answer> {
      for (;;) {
        const res = await send();
        if (res.status !== 0 && res.status < 500) return res;
        if (res.status >= 500) throw new Error(`server answered ${res.status}: ${JSON.stringify(res.body)}`);
        stats.retries += 1;
        if (Date.now() > deadline) throw new Error('the server did not come back');
        await new Promise((r) => setTimeout(r, 50 + Math.floor(random() * 150)));
      }
    }

    const amount = (minor: bigint) => formatAmount(minor, 'RUB');
    const money = (token: string, path: string, body: unknown, key: string) =>
      answered(() => call(base(), 'POST', path, { token, body, headers: { 'idempotency-key': key } }));

    async function signedPaymentWebhook(event: string, payment: string, order: string, minor: bigint) {
      const body = JSON.stringify({
        event,
        payment_id: payment,
        order,
        amount: amount(minor),
        currency_code: 'RUB',
        occurred_at: new Date().toISOString(),
      });
      return answered(async () => {
        try {
          const res = await fetch(`${base()}/v2/wallet/webhooks/payments`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-signature': signPayload(SECRET, body, new Date()),
            },
            body,
            signal: AbortSignal.timeout(30_000),
          });
          return { status: res.status, body: await res.text() };
        } catch {
          return { status: 0, body: null };
        }
      });
    }

    async function operation(me: Client, meIndex: number): Promise<void> {
      const roll = random();
      const other = clients[(meIndex + 1 + Math.floor(random() * (CLIENTS - 1))) % CLIENTS]!;
      const minor = BigInt(1 + Math.floor(random() * 5000));
      const key = `chaos-${randomUUID()}`;
      if (roll < 0.3) {
        const body = { phone: other.phone, amount: amount(minor), currency_code: 'RUB', pin: '1234' };
        const res = await money(me.token, '/v2/wallet/transfer', body, key);
        if (res.status !== 200) {
          stats.refused += 1;
          return;
        }
        acks.push({ kind: 'transfer', key, id: res.body.receipt.id, from: me.phone, to: other.phone, minor });
      } else if (roll < 0.45) {
        const body = { qr: walletQrText(other.phone, amount(minor)), currency_code: 'RUB', pin: '1234' };
        const res = await money(me.token, '/v2/wallet/payment/qr', body, key);
        if (res.status !== 200) {
          stats.refused += 1;
          return;
        }
        acks.push({ kind: 'payment', key, id: res.body.receipt.id, from: me.phone, to: other.phone, minor });
      } else if (roll < 0.6) {
        const card = random() < 0.7 ? GOOD_CARD : DECLINED_CARD;
        const body = { amount: amount(minor), pan: card, currency_code: 'RUB', pin: '1234' };
        const res = await money(me.token, '/v2/wallet/withdrawal', body, key);
        if (res.status !== 200) {
          stats.refused += 1;
          return;
        }
        acks.push({ kind: 'withdrawal', key, id: res.body.receipt.id, from: me.phone, minor, card });
      } else if (roll < 0.85) {
        const res = await money(
          me.token,
          '/v2/wallet/top-up',
          { amount: amount(minor), currency_code: 'RUB' },
          key,
        );
        if (res.status !== 200) {
          stats.refused += 1;
          return;
        }
        const payment = String(res.body.url).split('/').pop()!;
        const ack: Ack = {
          kind: 'topup',
          key,
          order: res.body.order,
          payment,
          to: me.phone,
          minor,
          paid: null,
        };
        acks.push(ack);
        const choice = random();
        if (choice < 0.1) return; // abandoned on the payment page: the order stays pending, nothing moves
        const pay = choice < 0.7;
        const form = new URLSearchParams(
          pay
            ? { card: GOOD_CARD, action: 'pay' }
            : choice < 0.85
              ? { card: DECLINED_CARD, action: 'pay' }
              : { action: 'decline' },
        ).toString();
        const page = await answered(async () => {
          try {
            const r = await fetch(`${base()}/sandbox/pay/${payment}`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: form,
              redirect: 'manual',
              signal: AbortSignal.timeout(30_000),
            });
            await r.text();
            return { status: r.status, body: null };
          } catch {
            return { status: 0, body: null };
          }
        });
        expect(page.status).toBe(303);
        ack.paid = pay;
        if (random() < 0.3) {
          // The provider repeats its callback; or, once the order is decided (asked for its status, which
          // reconciles it), a contradicting callback arrives late. Neither moves money.
          stats.webhookRepeats += 1;
          let event = pay ? 'payment.succeeded' : 'payment.canceled';
          if (pay && random() < 0.5) {
            const status = await answered(() =>
              call(base(), 'GET', `/v2/wallet/top-up/status?order=${ack.order}`, { token: me.token }),
            );
            expect(status.body.status).toBe('complete');
            event = 'payment.canceled';
          }
          const repeat = await signedPaymentWebhook(event, payment, ack.order, minor);
          expect(repeat.status).toBeLessThan(500);
        }
      } else {
        // A repeat of an acknowledged money call with the same key: the same answer, nothing moved.
        const earlier = acks.filter(
          (a): a is Exclude<Ack, { kind: 'topup' }> => a.kind !== 'topup' && a.from === me.phone,
        );
        if (!earlier.length) return;
        const a = earlier[Math.floor(random() * earlier.length)]!;
        stats.repeats += 1;
        const path =
          a.kind === 'transfer'
            ? '/v2/wallet/transfer'
            : a.kind === 'payment'
              ? '/v2/wallet/payment/qr'
              : '/v2/wallet/withdrawal';
        const body =
          a.kind === 'transfer'
            ? { phone: a.to, amount: amount(a.minor), currency_code: 'RUB', pin: '1234' }
            : a.kind === 'payment'
              ? { qr: walletQrText(a.to, amount(a.minor)), currency_code: 'RUB', pin: '1234' }
              : {
                  amount: amount(a.minor),
                  pan: a.kind === 'withdrawal' ? a.card : '',
                  currency_code: 'RUB',
                  pin: '1234',
                };
        const res = await money(me.token, path, body, a.key);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.receipt.id).toBe(a.id);
      }
    }

    // The chaos monkey: SIGKILL at random moments (spread over the run by operation count, each after a
    // random delay, so a kill lands inside whatever requests are in flight), restart on the same port.
    const killAt = Array.from({ length: MIN_KILLS }, (_, i) =>
      Math.floor(((i + 0.2 + random() * 0.6) / (MIN_KILLS + 0.5)) * OPS),
    );
    const monkey = (async () => {
      for (const at of killAt) {
        while (stats.ops < at) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, Math.floor(random() * 300)));
        await server?.kill('SIGKILL');
        stats.kills += 1;
        await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 400)));
        server = await startServer({ databaseUrl: database.url, port, env });
        stats.restarts += 1;
      }
    })();

    let next = 0;
    await Promise.all(
      clients.map(async (me, index) => {
        while (next < OPS) {
          next += 1;
          await operation(me, index);
          stats.ops += 1;
        }
      }),
    );
    await monkey;
    // Let the running instance's worker settle the sandbox's due payouts.
    await new Promise((r) => setTimeout(r, 1500));

    // The providers finish: a later instance (its clock two hours on) runs the payouts worker over what
    // the kills left open, and every pending order is asked about (reconciled with the provider).
    const later = new TestClock(Date.now() + 2 * 3_600_000);
    const config = loadConfig({
      WALLET_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      DB_POOL_SIZE: '4',
      SANDBOX_PAYOUT_DELAY_MS: '0',
      WEBHOOK_SECRET: SECRET,
      PIN_KEY,
    });
    const ctx = await createContext(config, { clock: later });
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    try {
      // A pass settles a batch (the worker's own size), and a busy run can leave hundreds open: pass
      // until none is left or the passes stop settling anything.
      let idle = 0;
      for (let pass = 0; pass < 2000 && idle < 3; pass++) {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::integer AS n FROM payouts WHERE status IN ('created', 'pending')`,
        );
        if (rows[0]!.n === 0) break;
        idle = (await runPayoutWorkerOnce(ctx)) === 0 ? idle + 1 : 0;
        later.advance(10 * 60_000);
      }
      const tokenOf = new Map(clients.map((c) => [c.phone, c.token]));
      const { rows: pending } = await db.query<{ id: string; phone: string }>(
        `SELECT o.id, u.phone FROM topup_orders o JOIN users u ON u.id = o.user_id WHERE o.status = 'pending'`,
      );
      for (const order of pending) {
        const res = await app.inject({
          method: 'GET',
          url: `/v2/wallet/top-up/status?order=${order.id}`,
          headers: { authorization: `Token ${tokenOf.get(order.phone)}` },
        });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await app.close();
      await ctx.stop();
    }

    // ---------- invariants ----------
    let checks = 0;
    const check = (ok: boolean, what: string) => {
      checks += 1;
      if (!ok) problems.push(what);
    };
    const problems: string[] = [];
    const violations = await ledgerViolations(db);
    for (const v of violations) problems.push(v);
    checks += 1;
    const { rows: sums } = await db.query<{ currency: string; total: bigint }>(
      'SELECT currency, sum(balance)::bigint AS total FROM ledger_accounts GROUP BY currency',
    );
    for (const s of sums) check(s.total === 0n, `${s.currency} sums to ${s.total}`);
    const { rows: negative } = await db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM ledger_accounts WHERE user_id IS NOT NULL AND balance < 0',
    );
    check(negative[0]!.n === 0, `${negative[0]!.n} user balances below zero`);
    const { rows: holds } = await db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM ledger_transfers WHERE is_hold AND status = 'pending'`,
    );
    check(holds[0]!.n === 0, `${holds[0]!.n} holds neither settled nor released`);
    const { rows: open } = await db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM payouts WHERE status IN ('created', 'pending')`,
    );
    check(open[0]!.n === 0, `${open[0]!.n} payouts still open`);

    // Every acknowledged operation exists exactly once, and nothing exists that was not acknowledged.
    const moved = await db.query<{ id: string; kind: string; reference_id: string | null; status: string }>(
      'SELECT id::text, kind, reference_id, status FROM ledger_transfers',
    );
    const transfersById = new Map(moved.rows.map((r) => [r.id, r]));
    const payoutRows = await db.query<{
      id: string;
      status: string;
      hold_transfer_id: string;
      amount: bigint;
    }>('SELECT id::text, status, hold_transfer_id::text, amount FROM payouts');
    const payouts = new Map(payoutRows.rows.map((r) => [r.id, r]));
    const orderRows = await db.query<{
      id: string;
      status: string;
      transfer_id: string | null;
      amount: bigint;
    }>('SELECT id::text, status, transfer_id::text, amount FROM topup_orders');
    const orders = new Map(orderRows.rows.map((r) => [r.id, r]));
    const expected = new Map(clients.map((c) => [c.phone, START_RUB]));
    const add = (phone: string, delta: bigint) => expected.set(phone, expected.get(phone)! + delta);
    for (const a of acks) {
      if (a.kind === 'transfer' || a.kind === 'payment') {
        const t = transfersById.get(a.id);
        check(!!t && t.kind === a.kind && t.status === 'posted', `${a.kind} ${a.id} missing or wrong`);
        add(a.from, -a.minor);
        add(a.to, a.minor);
      } else if (a.kind === 'withdrawal') {
        const p = payouts.get(a.id);
        check(!!p && p.amount === a.minor, `withdrawal ${a.id} missing`);
        if (!p) continue;
        check(
          p.status === (a.card === DECLINED_CARD ? 'failed' : p.status),
          `withdrawal ${a.id} to the declined card ${p.status}`,
        );
        check(
          transfersById.get(p.hold_transfer_id)?.status === (p.status === 'succeeded' ? 'posted' : 'voided'),
          `hold of ${a.id}`,
        );
        if (p.status === 'succeeded') add(a.from, -a.minor);
      } else if (a.kind === 'topup') {
        const o = orders.get(a.order);
        check(!!o && o.amount === a.minor, `order ${a.order} missing`);
        if (!o) continue;
        if (a.paid === true) {
          check(o.status === 'complete' && !!o.transfer_id, `paid order ${a.order} is ${o.status}`);
          add(a.to, a.minor);
        } else if (a.paid === false)
          check(o.status === 'failed' && !o.transfer_id, `declined order ${a.order} is ${o.status}`);
        else check(o.status !== 'complete', `abandoned order ${a.order} was credited`);
      }
    }
    const count = (kind: string) => moved.rows.filter((r) => r.kind === kind).length;
    const acked = (kind: Ack['kind']) => acks.filter((a) => a.kind === kind).length;
    check(
      count('transfer') === acked('transfer'),
      `transfers: ${count('transfer')} in the ledger, ${acked('transfer')} acknowledged`,
    );
    check(
      count('payment') === acked('payment'),
      `QR payments: ${count('payment')} in the ledger, ${acked('payment')} acknowledged`,
    );
    check(
      payouts.size === acked('withdrawal'),
      `payouts: ${payouts.size} stored, ${acked('withdrawal')} acknowledged`,
    );
    check(orders.size === acked('topup'), `orders: ${orders.size} stored, ${acked('topup')} acknowledged`);
    const credits = moved.rows.filter((r) => r.kind === 'topup' && r.reference_id !== null);
    check(new Set(credits.map((r) => r.reference_id)).size === credits.length, 'an order was credited twice');
    // No idempotency key moved money twice: each key's stored answer names one operation, each used once
    // (a payment's key keeps its transfer's id, `kept`; a withdrawal's its receipt; a top-up's its order).
    const { rows: keys } = await db.query<{ key: string; id: string | null }>(
      `SELECT key, coalesce(answer->>'kept', answer->'receipt'->>'id', answer->>'order') AS id
       FROM idempotency_keys WHERE key LIKE 'chaos-%'`,
    );
    const byKey = new Map(acks.map((a) => [a.key, a.kind === 'topup' ? a.order : a.id]));
    check(keys.length === byKey.size, `${keys.length} keys stored, ${byKey.size} acknowledged`);
    for (const k of keys) check(byKey.get(k.key) === k.id, `key ${k.key} answers ${k.id}`);
    check(new Set(keys.map((k) => k.id)).size === keys.length, 'two keys answer one operation');
    // Each person's balance is exactly what their acknowledged operations say.
    const { rows: balances } = await db.query<{ phone: string; balance: bigint }>(
      `SELECT u.phone, a.balance FROM ledger_accounts a JOIN users u ON u.id = a.user_id WHERE a.currency = 'RUB'`,
    );
    for (const b of balances)
      if (expected.has(b.phone))
        check(b.balance === expected.get(b.phone), `${b.phone}: ${b.balance} != ${expected.get(b.phone)}`);

    const kinds = ['transfer', 'payment', 'withdrawal', 'topup'] as const;
    console.info(
      `chaos summary: ${stats.ops} operations (${kinds.map((k) => `${acked(k)} ${k}`).join(', ')}, ${stats.repeats} same-key repeats, ` +
        `${stats.webhookRepeats} repeated webhooks, ${stats.refused} refused) from ${CLIENTS} clients, ${stats.kills} SIGKILLs survived, ` +
        `${stats.retries} unanswered requests retried, ${checks} invariant checks, ${problems.length} broken`,
    );
    expect(problems.slice(0, 30)).toEqual([]);
    expect(stats.kills).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(stats.ops).toBeGreaterThanOrEqual(OPS);
    passed = true;
  }, 1_800_000);
});
