/**
 * `npm run test:cluster`: the production topology (scripts/cluster.ts) under a load of transfers and
 * top-ups from many people through HAProxy, each request repeated with the same Idempotency-Key until
 * it is answered. During the load the primary's whole node is SIGKILLed, later one server instance.
 * Then: every acknowledged operation exists exactly once and repeats answer the same, every currency
 * sums to zero, no balance is negative, each person's balance is what their operations say, clients
 * saw no 500 and every error in the contract's shape, and no instance exited on its own. It prints the
 * time from the primary's death to the first successful write, and the errors clients saw.
 *
 * Then the backup drill: a base backup taken before the load plus the archived WAL are restored to a
 * moment during the load (recovery_target_time) on a separate port, and the ledger's invariants are
 * checked there; everything acknowledged before that moment is in it, nothing begun after it.
 *
 *   CLUSTER_LOAD_SECONDS  length of the load (default 70, at least 60)
 *   CLUSTER_CLIENTS       concurrent people (default 24)
 *   CLUSTER_KEEP=1        keep the folder (logs, data) after the run
 *   CLUSTER_SETTLE_WAIT_S how long the workers get to settle payouts before a later pass (default 20)
 *   ANTIFRAUD_AMOUNT_FLOOR the instances' floor in roubles (default here 3000: some calls are held)
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS, formatAmount } from '@e-wallet/contract';
import pg from 'pg';
import {
  down,
  killInstance,
  killPrimary,
  type Layout,
  layout,
  PG_BIN,
  restartInstance,
  status,
  up,
} from '../../../../scripts/cluster.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/create-context.ts';
import { type Db, openPostgres } from '../../src/db/client.ts';
import { runPayoutWorkerOnce } from '../../src/modules/payouts/worker.ts';
import { call, register } from '../chaos/process.ts';
import { fundPhone, ledgerViolations } from '../fund.ts';
import { TestClock } from '../helpers.ts';

const LOAD_SECONDS = Math.max(60, Number(process.env.CLUSTER_LOAD_SECONDS ?? 70));
const CLIENTS = Number(process.env.CLUSTER_CLIENTS ?? 24);
const START_RUB = 1_000_000n;
const GOOD_CARD = '4111 1111 1111 1111';
/** When in the load (seconds) the backup drill's moment is taken, the primary dies, an instance dies. */
const DRILL_AT = 10;
const KILL_PRIMARY_AT = 20;
const KILL_INSTANCE_AFTER_RECOVERY = 12;
/** A request unanswered this long after the load ends fails the run. */
const DRAIN_MS = 90_000;
// The instances' antifraud floor (roubles): low enough that on any machine's speed a fresh session's
// many small payments to new payees add up to it, so held calls are under the failover too.
process.env.ANTIFRAUD_AMOUNT_FLOOR ??= '3000';

interface Person {
  phone: string;
  token: string;
  language: 'ru' | 'en';
}

interface Answer {
  status: number;
  body: any;
  headers: Headers | null;
}

type Ack =
  | {
      kind: 'transfer';
      key: string;
      id: string;
      from: string;
      to: string;
      minor: bigint;
      sentAt: number;
      at: number;
    }
  /** A transfer antifraud held (202): its money waits in the ledger's hold until decided. */
  | {
      kind: 'held';
      call: 'transfer' | 'withdrawal';
      key: string;
      holdId: string;
      from: string;
      body: unknown;
      minor: bigint;
      sentAt: number;
      at: number;
    }
  | { kind: 'topup'; key: string; order: string; to: string; minor: bigint; sentAt: number; at: number }
  | { kind: 'withdrawal'; key: string; id: string; from: string; minor: bigint; sentAt: number; at: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line: string) => console.info(`test:cluster: ${line}`);

function asPostgres(args: string[]): void {
  execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function main(): Promise<number> {
  const l = layout();
  const began = Date.now();
  say(`bringing the topology up in ${l.dir}`);
  await up(l);
  say(`up in ${Math.round((Date.now() - began) / 1000)} s`);
  let db: Db | undefined;
  let passed = false;
  try {
    db = await openPostgres(l.databaseUrl, 4);
    passed = await scenario(l, db);
  } catch (error) {
    console.error(error);
  } finally {
    await db?.close().catch(() => {});
    if (!passed || process.env.CLUSTER_KEEP === '1') say(`logs and data kept in ${l.dir}`);
    await down(l, { keep: !passed || process.env.CLUSTER_KEEP === '1' });
  }
  say(`${passed ? 'PASSED' : 'FAILED'} in ${Math.round((Date.now() - began) / 1000)} s`);
  return passed ? 0 : 1;
}

async function scenario(l: Layout, db: Db): Promise<boolean> {
  // The drill's base backup, from the primary through the PostgreSQL front, before any money moves.
  const backup = join(l.dir, 'basebackup');
  asPostgres([
    `${PG_BIN}/pg_basebackup`,
    '-h',
    '127.0.0.1',
    '-p',
    String(l.pgFrontPort),
    '-U',
    'postgres',
    '-D',
    backup,
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  say('base backup taken');

  const people: Person[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const person = await register(l.url, { address: `198.51.100.${i + 1}` });
    await db.query(`UPDATE users SET identification_level = 'full' WHERE phone = $1`, [person.phone]);
    await fundPhone({ db, clock: { now: () => new Date() } }, person.phone, START_RUB);
    people.push({ ...person, language: i % 2 ? 'en' : 'ru' });
  }
  say(`${CLIENTS} people registered and funded`);

  const acks: Ack[] = [];
  const errors = new Map<string, number>();
  const problems: string[] = [];
  const stats = { sent: 0, retries: 0, refused: 0 };
  const noteError = (line: string) => errors.set(line, (errors.get(line) ?? 0) + 1);

  /** One request through HAProxy; a broken connection answers status 0. */
  async function send(
    person: Person,
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      authorization: `Token ${person.token}`,
      'accept-language': person.language,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (key) headers['idempotency-key'] = key;
    try {
      const res = await fetch(`${l.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
        redirect: 'manual',
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: res.status, body: parsed, headers: res.headers };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const what = cause?.code || cause?.message || `${(error as Error).name}: ${(error as Error).message}`;
      return { status: 0, body: what, headers: null };
    }
  }

  /** Every error a client sees is in the contract's shape, in its language; 503s say when to retry. */
  function inspect(person: Person, path: string, answer: Answer): void {
    if (answer.status === 0) {
      noteError(`network error (${String(answer.body)})`);
      if (process.env.CLUSTER_DEBUG)
        say(`network error at ${new Date().toISOString()} ${path}: ${answer.body}`);
      return;
    }
    if (answer.status < 400) return;
    const b = answer.body;
    const shaped =
      b &&
      typeof b === 'object' &&
      b.status === 'error' &&
      typeof b.code === 'string' &&
      b.code in ERRORS &&
      b.message === (ERRORS as Record<string, { ru: string; en: string }>)[b.code]?.[person.language];
    const from = answer.headers?.get('x-request-id') ? 'instance' : 'HAProxy';
    noteError(`${answer.status} ${shaped ? b.code : 'NOT IN THE CONTRACT SHAPE'} (from ${from})`);
    if (!shaped) problems.push(`${path}: ${answer.status} not in the contract's shape: ${JSON.stringify(b)}`);
    if (answer.status >= 500 && answer.status !== 503)
      problems.push(`${path}: ${answer.status} ${JSON.stringify(b)}`);
    if (answer.status === 503 && !answer.headers?.get('retry-after'))
      problems.push(`${path}: 503 without Retry-After`);
  }

  /** Repeats the same request (the same key and body) until it is answered for good. */
  async function answered(
    person: Person,
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<Answer> {
    const deadline = loadEnd + DRAIN_MS;
    for (let attempt = 0; ; attempt++) {
      stats.sent += 1;
      const answer = await send(person, method, path, body, key);
      inspect(person, path, answer);
      if (answer.status !== 0 && answer.status < 500) return answer;
      if (Date.now() > deadline) throw new Error(`${method} ${path} never answered: ${answer.status}`);
      stats.retries += 1;
      const retryAfter = Number(answer.headers?.get('retry-after') ?? 0);
      // Retry-After says seconds; a client on a phone would wait that long, the load waits less
      // (up to 0.5 s) so that the first write after the failover is seen when it can be made.
      await sleep(Math.min(500, retryAfter ? 100 * (attempt + 1) : 100));
    }
  }

  async function operation(me: Person, meIndex: number): Promise<void> {
    const sentAt = Date.now();
    const key = `cluster-${randomUUID()}`;
    const minor = BigInt(1 + Math.floor(Math.random() * 5000));
    const amount = formatAmount(minor, 'RUB');
    // Many small payments from a fresh session to new payees add up to antifraud's floor: the call
    // answers 202 and its money waits in the ledger's hold until decided.
    const wasHeld = (call: 'transfer' | 'withdrawal', res: Answer, body: unknown) => {
      if (res.status !== 202 || typeof res.body?.hold_id !== 'string') return false;
      acks.push({
        kind: 'held',
        call,
        key,
        holdId: res.body.hold_id,
        from: me.phone,
        body,
        minor,
        sentAt,
        at: Date.now(),
      });
      return true;
    };
    const roll = Math.random();
    if (roll < 0.08) {
      // A withdrawal: a hold now, settled by a payouts worker (on whichever instance claims it) later.
      const body = { amount, pan: GOOD_CARD, currency_code: 'RUB', pin: '1234' };
      const res = await answered(me, 'POST', '/v2/wallet/withdrawal', body, key);
      if (wasHeld('withdrawal', res, body)) return;
      if (res.status !== 200) {
        stats.refused += 1;
        return;
      }
      acks.push({
        kind: 'withdrawal',
        key,
        id: res.body.receipt.id,
        from: me.phone,
        minor,
        sentAt,
        at: Date.now(),
      });
    } else if (roll < 0.75) {
      const other = people[(meIndex + 1 + Math.floor(Math.random() * (CLIENTS - 1))) % CLIENTS]!;
      const body = { phone: other.phone, amount, currency_code: 'RUB', pin: '1234' };
      const res = await answered(me, 'POST', '/v2/wallet/transfer', body, key);
      if (wasHeld('transfer', res, body)) return;
      if (res.status !== 200) {
        stats.refused += 1;
        return;
      }
      acks.push({
        kind: 'transfer',
        key,
        id: res.body.receipt.id,
        from: me.phone,
        to: other.phone,
        minor,
        sentAt,
        at: Date.now(),
      });
    } else {
      const res = await answered(me, 'POST', '/v2/wallet/top-up', { amount, currency_code: 'RUB' }, key);
      if (res.status !== 200) {
        stats.refused += 1;
        return;
      }
      const payment = String(res.body.url).split('/').pop()!;
      // The payment page's form: the person pays with a good card; repeated until answered.
      const deadline = loadEnd + DRAIN_MS;
      for (;;) {
        let status = 0;
        let headers: Headers | null = null;
        let text = '';
        try {
          const r = await fetch(`${l.url}/sandbox/pay/${payment}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': me.language },
            body: new URLSearchParams({ card: GOOD_CARD, action: 'pay' }).toString(),
            redirect: 'manual',
            signal: AbortSignal.timeout(30_000),
          });
          status = r.status;
          headers = r.headers;
          text = await r.text();
        } catch (error) {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          text = cause?.code || cause?.message || `${(error as Error).name}: ${(error as Error).message}`;
        }
        if (status === 303) break;
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        inspect(me, '/sandbox/pay', { status, body, headers });
        if (status !== 0 && status < 500) {
          problems.push(`the payment page answered ${status}: ${text.slice(0, 200)}`);
          return;
        }
        if (Date.now() > deadline) throw new Error('the payment page never answered');
        await sleep(200);
      }
      // Back from the page, the app asks for the order's state until it is decided (a callback lost in
      // the failover is made good here: the server asks the provider).
      for (let attempt = 0; ; attempt++) {
        const state = await answered(me, 'GET', `/v2/wallet/top-up/status?order=${res.body.order}`);
        if (state.status === 200 && state.body.status === 'complete') break;
        if (state.status !== 200 || attempt > 100) {
          problems.push(`order ${res.body.order}: ${state.status} ${JSON.stringify(state.body)}`);
          return;
        }
        await sleep(200);
      }
      acks.push({ kind: 'topup', key, order: res.body.order, to: me.phone, minor, sentAt, at: Date.now() });
    }
  }

  // ---------- the load, with the drill's moment, the primary's death and an instance's death ----------
  const loadStart = Date.now();
  const loadEnd = loadStart + LOAD_SECONDS * 1000;
  let drillAt = 0;
  let killedPrimaryAt = 0;
  let killedPrimary = '';
  let killedInstance = '';
  let killedInstanceAt = 0;
  let instancesBeforeKill: { name: string; alive: boolean }[] = [];

  const director = (async () => {
    await sleep(DRILL_AT * 1000);
    drillAt = Date.now();
    // Close the WAL segment holding the moment and wait until it is archived: the drill needs it after
    // the primary is gone.
    await sleep(1500);
    const { rows } = await db.query<{ file: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS file');
    const file = join(l.archiveDir, rows[0]!.file);
    const archivedBy = Date.now() + 20_000;
    while (!existsSync(file) && Date.now() < archivedBy) await sleep(200);
    if (!existsSync(file)) problems.push(`WAL segment ${rows[0]!.file} was not archived in 20 s`);
    say(`drill moment ${new Date(drillAt).toISOString()}; WAL archived`);

    await sleep(Math.max(0, loadStart + KILL_PRIMARY_AT * 1000 - Date.now()));
    killedPrimary = await killPrimary(l);
    killedPrimaryAt = Date.now();
    say(`SIGKILLed the primary's node (${killedPrimary})`);
    // Once writes are back, wait a little and kill an instance too.
    while (!acks.some((a) => a.sentAt >= killedPrimaryAt) && Date.now() < loadEnd - 15_000) await sleep(100);
    await sleep(KILL_INSTANCE_AFTER_RECOVERY * 1000);
    instancesBeforeKill = (await status(l)).instances.map((i) => ({ name: i.name, alive: i.alive }));
    killedInstance = killInstance(l, 'app1');
    killedInstanceAt = Date.now();
    say(`SIGKILLed a server instance (${killedInstance})`);
    // It comes back (as a supervisor would restart it) and joins once ready.
    await sleep(3000);
    restartInstance(l, killedInstance);
  })();

  let seconds = 0;
  const ticker = setInterval(() => {
    seconds += 10;
    say(`${seconds} s: ${acks.length} acknowledged, ${stats.retries} retries`);
  }, 10_000);
  await Promise.all(
    people.map(async (me, index) => {
      while (Date.now() < loadEnd) await operation(me, index);
    }),
  );
  clearInterval(ticker);
  await director;
  const loadSeconds = (Date.now() - loadStart) / 1000;

  // ---------- afterwards ----------
  const check = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const after = await status(l);
  say(`status after the load: ${JSON.stringify({ primary: after.primary, instances: after.instances })}`);
  check(!!killedPrimary && after.primary !== null && after.primary !== killedPrimary, 'no new primary');
  check(
    instancesBeforeKill.length === 2 && instancesBeforeKill.every((i) => i.alive),
    `an instance exited during the failover: ${JSON.stringify(instancesBeforeKill)}`,
  );
  for (const instance of after.instances)
    check(instance.alive, `${instance.name} is not running after the load (it exited)`);
  // The restarted instance came up and is ready.
  const readyBy = Date.now() + 60_000;
  while (Date.now() < readyBy && !(await status(l)).instances.every((i) => i.ready)) await sleep(500);
  check(
    (await status(l)).instances.every((i) => i.ready),
    'not every instance is ready after the load',
  );

  // Notices still reach the instance that lived through the failover (its LISTEN reconnected): a
  // session it has cached ends there within a second of being ended on the other instance.
  {
    const survivor = after.instances.find((i) => i.name !== killedInstance)!;
    const other = after.instances.find((i) => i.name === killedInstance)!;
    const person = await register(l.url, { address: '198.51.100.250' });
    const at = (port: number) => `http://127.0.0.1:${port}`;
    const info = () => call(at(survivor.port), 'GET', '/v2/wallet/auth/info', { token: person.token });
    check((await info()).status === 200, 'a new session is not known to the surviving instance');
    const out = await call(at(other.port), 'POST', '/v2/wallet/auth/logout', { token: person.token });
    check(out.status === 200, `logout answered ${out.status}`);
    const started = Date.now();
    let seen = await info();
    while (seen.status === 200 && Date.now() - started < 5_000) {
      await sleep(20);
      seen = await info();
    }
    check(
      seen.status === 401 && Date.now() - started < 1_000,
      `the surviving instance still took a signed-out session after ${Date.now() - started} ms (LISTEN lost?)`,
    );
  }

  // The payout workers (they lived through the failover) settle what is due. A payout whose call to
  // the provider failed in the failover waits for its grace period (hours) before it is asked about:
  // a later instance, its clock two hours on, finishes those, as money-chaos does.
  const openPayouts = async () =>
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM payouts WHERE status IN ('created', 'pending')`,
      )
    ).rows[0]!.n;
  const settledBy = Date.now() + Number(process.env.CLUSTER_SETTLE_WAIT_S ?? 20) * 1000;
  while ((await openPayouts()) > 0 && Date.now() < settledBy) await sleep(500);
  const leftOpen = await openPayouts();
  if (leftOpen > 0) {
    const later = new TestClock(Date.now() + 2 * 3_600_000);
    const config = loadConfig({
      WALLET_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: l.databaseUrl,
      DB_POOL_SIZE: '4',
      SANDBOX_PAYOUT_DELAY_MS: '0',
    });
    const ctx = await createContext(config, { clock: later });
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    try {
      let idle = 0;
      for (let pass = 0; pass < 200 && idle < 3 && (await openPayouts()) > 0; pass++) {
        idle = (await runPayoutWorkerOnce(ctx)) === 0 ? idle + 1 : 0;
        later.advance(10 * 60_000);
      }
    } finally {
      await app.close();
      await ctx.stop();
    }
  }
  const stillOpen = await openPayouts();
  check(stillOpen === 0, `${stillOpen} payouts still open after the workers and a later pass`);

  // Every acknowledged transfer is repeated with its key: the same receipt, nothing moves.
  const sample = acks.filter((a) => a.kind === 'transfer').slice(0, 300);
  for (const a of sample) {
    if (a.kind !== 'transfer') continue;
    const me = people.find((p) => p.phone === a.from)!;
    const res = await answered(
      me,
      'POST',
      '/v2/wallet/transfer',
      { phone: a.to, amount: formatAmount(a.minor, 'RUB'), currency_code: 'RUB', pin: '1234' },
      a.key,
    );
    check(res.status === 200 && res.body.receipt?.id === a.id, `a repeat of ${a.key} answered ${res.status}`);
  }
  // A held transfer's repeat answers the same 202 with the same hold, whatever its state since.
  for (const a of acks.filter((a) => a.kind === 'held').slice(0, 100)) {
    if (a.kind !== 'held') continue;
    const me = people.find((p) => p.phone === a.from)!;
    const res = await answered(me, 'POST', `/v2/wallet/${a.call}`, a.body, a.key);
    check(
      res.status === 202 && res.body.hold_id === a.holdId,
      `a repeat of held ${a.key} answered ${res.status}`,
    );
  }

  for (const v of await ledgerViolations(db)) problems.push(v);
  const moved = await db.query<{ id: string; kind: string; reference_id: string | null; status: string }>(
    'SELECT id::text, kind, reference_id, status FROM ledger_transfers',
  );
  const transfersById = new Map(moved.rows.map((r) => [r.id, r]));
  const orderRows = await db.query<{
    id: string;
    status: string;
    transfer_id: string | null;
    amount: bigint;
  }>('SELECT id::text, status, transfer_id::text, amount FROM topup_orders');
  const orders = new Map(orderRows.rows.map((r) => [r.id, r]));
  const payoutRows = await db.query<{ id: string; status: string; hold_transfer_id: string; amount: bigint }>(
    'SELECT id::text, status, hold_transfer_id::text, amount FROM payouts',
  );
  const payouts = new Map(payoutRows.rows.map((r) => [r.id, r]));
  const holdRows = await db.query<{ id: string; status: string; hold_transfer_id: string; amount: bigint }>(
    'SELECT id::text, status, hold_transfer_id::text, amount FROM money_holds',
  );
  const holds = new Map(holdRows.rows.map((r) => [r.id, r]));
  const expectedHeld = new Map(people.map((p) => [p.phone, 0n]));
  const expected = new Map(people.map((p) => [p.phone, START_RUB]));
  let payoutsReleased = 0;
  const add = (phone: string, delta: bigint) => expected.set(phone, expected.get(phone)! + delta);
  for (const a of acks) {
    if (a.kind === 'transfer') {
      const t = transfersById.get(a.id);
      check(!!t && t.kind === 'transfer' && t.status === 'posted', `transfer ${a.id} missing or wrong`);
      add(a.from, -a.minor);
      add(a.to, a.minor);
    } else if (a.kind === 'held') {
      const h = holds.get(a.holdId);
      check(
        !!h && h.amount === a.minor && h.status === 'held',
        `held transfer ${a.holdId} is ${h?.status ?? 'missing'}`,
      );
      const t = h && transfersById.get(h.hold_transfer_id);
      check(!!t && t.kind === a.call && t.status === 'pending', `hold of ${a.holdId} is ${t?.status}`);
      expectedHeld.set(a.from, expectedHeld.get(a.from)! + a.minor);
    } else if (a.kind === 'withdrawal') {
      const p = payouts.get(a.id);
      check(
        !!p && p.amount === a.minor && (p.status === 'succeeded' || p.status === 'failed'),
        `withdrawal ${a.id} is ${p?.status ?? 'missing'}`,
      );
      if (!p) continue;
      if (p.status === 'failed') payoutsReleased += 1;
      check(
        transfersById.get(p.hold_transfer_id)?.status === (p.status === 'succeeded' ? 'posted' : 'voided'),
        `hold of ${a.id} (${p.status}) is ${transfersById.get(p.hold_transfer_id)?.status}`,
      );
      if (p.status === 'succeeded') add(a.from, -a.minor);
    } else {
      const o = orders.get(a.order);
      check(
        !!o && o.amount === a.minor && o.status === 'complete' && !!o.transfer_id,
        `paid order ${a.order} is ${o?.status}`,
      );
      add(a.to, a.minor);
    }
  }
  const count = (kind: string) => moved.rows.filter((r) => r.kind === kind).length;
  const transfers = acks.filter((a) => a.kind === 'transfer').length;
  const held = acks.filter((a) => a.kind === 'held').length;
  const heldTransfers = acks.filter((a) => a.kind === 'held' && a.call === 'transfer').length;
  const topups = acks.filter((a) => a.kind === 'topup').length;
  check(
    count('transfer') === transfers + heldTransfers,
    `transfers: ${count('transfer')} in the ledger, ${transfers} acknowledged and ${heldTransfers} held`,
  );
  check(holds.size === held, `money holds: ${holds.size} stored, ${held} answered held`);
  check(orders.size === topups, `top-up orders: ${orders.size} stored, ${topups} acknowledged`);
  const withdrawals = acks.filter((a) => a.kind === 'withdrawal').length;
  check(payouts.size === withdrawals, `payouts: ${payouts.size} stored, ${withdrawals} acknowledged`);
  const credits = moved.rows.filter((r) => r.kind === 'topup' && r.reference_id !== null);
  check(new Set(credits.map((r) => r.reference_id)).size === credits.length, 'an order was credited twice');
  check(
    credits.length === topups + CLIENTS,
    `${credits.length} top-up credits for ${topups} paid orders (+${CLIENTS} fundings)`,
  );
  const { rows: balances } = await db.query<{ phone: string; balance: bigint; pending_debits: bigint }>(
    `SELECT u.phone, a.balance, a.pending_debits FROM ledger_accounts a JOIN users u ON u.id = a.user_id
     WHERE a.currency = 'RUB'`,
  );
  for (const b of balances)
    if (expected.has(b.phone)) {
      check(
        b.balance === expected.get(b.phone),
        `${b.phone}: balance ${b.balance}, operations say ${expected.get(b.phone)}`,
      );
      check(
        b.pending_debits === expectedHeld.get(b.phone),
        `${b.phone}: ${b.pending_debits} held, its held transfers say ${expectedHeld.get(b.phone)}`,
      );
    }

  // ---------- what clients saw and how long writes were down ----------
  const firstWrite = acks.filter((a) => a.sentAt >= killedPrimaryAt).sort((a, b) => a.at - b.at)[0];
  const failoverSeconds = firstWrite ? (firstWrite.at - killedPrimaryAt) / 1000 : Number.NaN;
  const afterInstance = acks.filter((a) => a.sentAt >= killedInstanceAt).sort((a, b) => a.at - b.at)[0];
  check(!!firstWrite, 'no write succeeded after the primary was killed');
  check(failoverSeconds <= 30, `writes were down ${failoverSeconds} s after the primary died (goal 30 s)`);

  say(
    `load: ${loadSeconds.toFixed(0)} s, ${CLIENTS} people, ${transfers} transfers, ${topups} top-ups and ${withdrawals} withdrawals acknowledged, ${held} held by antifraud, ${stats.refused} refused, ${stats.sent} requests sent, ${stats.retries} repeated`,
  );
  say(
    `payouts: ${withdrawals - payoutsReleased} paid out, ${payoutsReleased} released; ${leftOpen} were still open ${process.env.CLUSTER_SETTLE_WAIT_S ?? 20} s after the load (their provider call lost in the failover) and were finished by a later instance's pass`,
  );
  say(
    `failover: time from the primary's death (${killedPrimary}) to the first successful write: ${failoverSeconds.toFixed(1)} s`,
  );
  if (afterInstance)
    say(
      `instance death (${killedInstance}): first write begun after it acknowledged in ${((afterInstance.at - killedInstanceAt) / 1000).toFixed(1)} s`,
    );
  say('errors clients saw (each answered request or broken connection):');
  if (errors.size === 0) say('  none');
  for (const [line, n] of [...errors].sort((a, b) => b[1] - a[1])) say(`  ${n} × ${line}`);

  // ---------- the backup drill ----------
  problems.push(...(await restoreDrill(l, backup, drillAt, acks)));

  if (problems.length) {
    say(`${problems.length} problem(s):`);
    for (const p of problems.slice(0, 50)) say(`  ${p}`);
    return false;
  }
  return true;
}

/**
 * Point-in-time restore: the base backup plus the archived WAL, replayed up to `moment` on a port of
 * its own, promoted, then checked: the ledger's invariants hold, every operation acknowledged before
 * the moment is there, and nothing begun after it.
 */
async function restoreDrill(l: Layout, backup: string, moment: number, acks: Ack[]): Promise<string[]> {
  const problems: string[] = [];
  const started = Date.now();
  const target = join(l.dir, 'restore');
  asPostgres(['cp', '-a', backup, target]);
  const settings = [
    `restore_command = 'cp ${l.archiveDir}/%f %p'`,
    `recovery_target_time = '${new Date(moment).toISOString().replace('T', ' ').replace('Z', '+00')}'`,
    `recovery_target_timeline = 'current'`,
    `recovery_target_action = 'promote'`,
    // A copy on its own: no standby to wait for, and it archives nothing into the cluster's archive.
    `synchronous_standby_names = ''`,
    `archive_mode = 'off'`,
    '',
  ].join('\n');
  execFileSync(
    'runuser',
    [
      '-u',
      'postgres',
      '--',
      'sh',
      '-c',
      `cat >> ${target}/postgresql.auto.conf && touch ${target}/recovery.signal`,
    ],
    {
      input: settings,
    },
  );
  asPostgres([
    `${PG_BIN}/pg_ctl`,
    '-D',
    target,
    '-o',
    `-p ${l.restorePort} -c listen_addresses=127.0.0.1 -c logging_collector=off`,
    '-l',
    join(l.dir, 'restore.log'),
    '-w',
    '-t',
    '120',
    'start',
  ]);
  const client = new pg.Client({
    host: '127.0.0.1',
    port: l.restorePort,
    user: 'postgres',
    database: 'wallet',
  });
  client.on('error', () => {});
  const restoredUrl = `postgres://postgres@127.0.0.1:${l.restorePort}/wallet`;
  let restored: Db | undefined;
  try {
    await client.connect();
    const promotedBy = Date.now() + 60_000;
    while ((await client.query('SELECT pg_is_in_recovery() AS r')).rows[0].r && Date.now() < promotedBy)
      await sleep(300);
    await client.end();
    restored = await openPostgres(restoredUrl, 2);
    for (const v of await ledgerViolations(restored)) problems.push(`restored: ${v}`);
    const { rows } = await restored.query<{ id: string }>('SELECT id::text FROM ledger_transfers');
    const present = new Set(rows.map((r) => r.id));
    const before = acks.filter(
      (a): a is Extract<Ack, { kind: 'transfer' }> => a.kind === 'transfer' && a.at < moment,
    );
    const missing = before.filter((a) => !present.has(a.id));
    if (missing.length)
      problems.push(
        `restored: ${missing.length} of ${before.length} transfers acknowledged before the moment are missing`,
      );
    const begunAfter = acks.filter(
      (a): a is Extract<Ack, { kind: 'transfer' }> => a.kind === 'transfer' && a.sentAt > moment + 1000,
    );
    const leaked = begunAfter.filter((a) => present.has(a.id));
    if (leaked.length) problems.push(`restored: ${leaked.length} transfers begun after the moment are in it`);
    if (before.length === 0)
      problems.push('restored: no transfer was acknowledged before the moment (nothing to check)');
    const { rows: sums } = await restored.query<{ currency: string; total: bigint }>(
      'SELECT currency, sum(balance)::bigint AS total FROM ledger_accounts GROUP BY currency',
    );
    say(
      `restore drill: restored to ${new Date(moment).toISOString()} in ${((Date.now() - started) / 1000).toFixed(1)} s; ${rows.length} ledger transfers; ${before.length} transfers acknowledged before the moment all present; ${leaked.length} of ${begunAfter.length} begun after it present; sums ${sums.map((s) => `${s.currency} ${s.total}`).join(', ')}; ${problems.length ? 'FAILED' : 'invariants hold'}`,
    );
  } catch (error) {
    problems.push(`restore drill: ${(error as Error).message}`);
  } finally {
    await restored?.close().catch(() => {});
    await client.end().catch(() => {});
    try {
      asPostgres([`${PG_BIN}/pg_ctl`, '-D', target, '-m', 'fast', '-w', 'stop']);
    } catch {}
  }
  return problems;
}

if (process.getuid?.() !== 0) {
  console.error('test:cluster runs PostgreSQL as the postgres user: run it as root (as .ci/run does)');
  process.exit(1);
}
// A leftover state of an interrupted run is stopped first.
if (existsSync(join(layout().dir, 'state.json'))) await down(layout());
process.exit(await main());
