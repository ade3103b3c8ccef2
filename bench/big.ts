/**
 * History and statistics at scale (`--big`, opt-in, never in --quick): seeds `rows` transfers with
 * SQL generate_series into a fresh bench database, two entries each, over a year, spread over
 * `rows / 1000` users (1000 transfers per user, alternating top-ups of 100.00 and payments of
 * 50.00, so no balance goes below zero and each currency sums to zero), then measures
 * GET /v2/wallet/transaction (first page and a page deep in the cursor chain) and GET /v2/wallet/stat
 * (a month and a whole year) for a user, through the real server, with the plans of the queries,
 * and GET /v2/wallet/user/notification (a page and the unread count over the user's 1000 money
 * notifications, read from the entries), before and after marking them all read, and the user's
 * statement of the last month (CSV, streamed). In a cluster of its own (bench/cluster.ts) without
 * flushes to disk: the machine's disk is not what is measured, and 10 million rows take minutes.
 */
import { type Db, openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { systemAccount } from '../apps/server/src/ledger/index.ts';
import { createSession } from '../apps/server/src/sessions/tokens.ts';
import { privateCluster } from './cluster.ts';
import { call } from './http.ts';
import { log, type Options, startServer } from './lib.ts';

export interface BigResult {
  transfers: number;
  users: number;
  seedSeconds: number;
  historyFirstPageMs: number;
  historyDeepPageMs: number;
  statMonthMs: number;
  statYearMs: number;
  notificationsMs: number;
  notificationsAllReadMs: number;
  statementMonthMs: number;
  /** Pages the plans below read (shared buffers hit and read): flat when the reads are index ranges. */
  historyBuffers: number;
  statYearBuffers: number;
  plans: Record<string, string>;
}

/** The median of `runs` timed calls, after 5 untimed ones (the server's code and plans warm up). */
async function timed(runs: number, work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
}

export async function bigHistory(options: Options): Promise<BigResult> {
  const rows = options.bigRows;
  const perUser = 1000;
  const users = Math.max(1, Math.floor(rows / perUser));
  const cluster = await privateCluster(
    [
      'fsync=off',
      'synchronous_commit=off',
      'full_page_writes=off',
      'max_wal_size=16GB',
      'checkpoint_timeout=1h',
      'maintenance_work_mem=512MB',
      'shared_buffers=1GB',
    ].map((setting) => `-c ${setting}`),
  );
  const url = cluster.url();
  const db = await openPostgres(url, 4);
  try {
    await migrate(db);
    const started = performance.now();
    // The ledger's secondary indexes are built once after the load, not row by row during it (the
    // keys and constraints stay): the same indexes, in a fraction of the time.
    const { rows: indexes } = await db.query<{ name: string; definition: string }>(
      `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
       WHERE t.relname IN ('ledger_entries', 'ledger_transfers')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    );
    for (const index of indexes) await db.exec(`DROP INDEX ${index.name}`);
    const topup = await systemAccount(db, 'RUB', 'adjustments');
    const external = await systemAccount(db, 'RUB', 'external_payments');
    const yearAgo = new Date(Date.now() - 365 * 86_400_000);
    log(`big: seeding ${users} users and ${rows} transfers (${rows * 2} entries)`);
    await db.exec(`
      CREATE UNLOGGED TABLE bench_users AS
        SELECT u, gen_random_uuid() AS user_id, gen_random_uuid() AS account_id FROM generate_series(0, ${users - 1}) u;
      INSERT INTO users (id, first_name, last_name, phone, email, identification_level, created_at)
        SELECT user_id, 'Бенч', 'Большой', '+7955' || lpad(u::text, 7, '0'), 'big' || u || '@example.com', 'simplified',
          '${yearAgo.toISOString()}' FROM bench_users;
      INSERT INTO ledger_accounts (id, user_id, purpose, currency, created_at)
        SELECT account_id, user_id, 'user', 'RUB', '${yearAgo.toISOString()}' FROM bench_users;`);
    // Transfer i belongs to user i % users as its (i / users)-th movement j: even j a top-up of
    // 100.00 in, odd j a payment of 50.00 out; both balances after each entry follow from j alone.
    const chunk = 1_000_000;
    for (let from = 0; from < rows; from += chunk) {
      const to = Math.min(rows, from + chunk) - 1;
      await db.exec(`
        CREATE TEMP TABLE bench_batch AS
          SELECT i, b.user_id, b.account_id, (i / ${users}) AS j, gen_random_uuid() AS transfer_id,
            timestamptz '${yearAgo.toISOString()}' + (i * (interval '365 days' / ${rows})) AS at
          FROM generate_series(${from}, ${to}) i JOIN bench_users b ON b.u = i % ${users};
        INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status, is_hold,
            created_at, settled_at)
          SELECT transfer_id,
            CASE WHEN j % 2 = 0 THEN '${topup.id}'::uuid ELSE account_id END,
            CASE WHEN j % 2 = 0 THEN account_id ELSE '${external.id}'::uuid END,
            CASE WHEN j % 2 = 0 THEN 10000 ELSE 5000 END, 'RUB',
            CASE WHEN j % 2 = 0 THEN 'topup' ELSE 'payment' END, 'posted', false, at, at
          FROM bench_batch;
        INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
            pending_debits_after, account_version, created_at, opened_at)
          SELECT transfer_id, account_id, user_id, 'single', CASE WHEN j % 2 = 0 THEN 10000 ELSE -5000 END, 'RUB',
            CASE WHEN j % 2 = 0 THEN 'topup' ELSE 'payment' END,
            10000 * (j / 2 + 1) - 5000 * ((j + 1) / 2), 0, j + 1, at, at
          FROM bench_batch
          UNION ALL
          SELECT transfer_id, CASE WHEN j % 2 = 0 THEN '${topup.id}'::uuid ELSE '${external.id}'::uuid END, NULL,
            'single', CASE WHEN j % 2 = 0 THEN -10000 ELSE 5000 END, 'RUB',
            CASE WHEN j % 2 = 0 THEN 'topup' ELSE 'payment' END, 0, 0, i + 1, at, at
          FROM bench_batch;
        DROP TABLE bench_batch;`);
      log(`big: ${to + 1} of ${rows} transfers`);
    }
    log(`big: building ${indexes.length} indexes`);
    for (const index of indexes) await db.exec(index.definition);
    // Account balances and versions from their entries (system accounts' entries carry no running balance).
    await db.exec(`
      UPDATE ledger_accounts a SET balance = s.total, version = s.n
        FROM (SELECT account_id, sum(amount) AS total, count(*) AS n FROM ledger_entries GROUP BY account_id) s
        WHERE s.account_id = a.id;
      DROP TABLE bench_users;`);
    // On its own: VACUUM refuses to run inside the implicit transaction of a multi-statement script.
    await db.exec('VACUUM ANALYZE');
    const seedSeconds = Math.round((performance.now() - started) / 1000);
    return await measureBig(options, db, url, { rows, users, seedSeconds, yearAgo });
  } finally {
    await db.close();
    cluster.remove();
  }
}

/**
 * The timed reads of `bigHistory` on a database seeded as it seeds one (`rows` transfers over `users`
 * people from `yearAgo`), through the real server on `url`; `db` is a pool on the same database.
 */
export async function measureBig(
  options: Options,
  db: Db,
  url: string,
  seeded: { rows: number; users: number; seedSeconds: number; yearAgo: Date },
): Promise<BigResult> {
  const { rows, users, seedSeconds, yearAgo } = seeded;
  const { rows: picked } = await db.query<{ id: string }>(
    "SELECT id FROM users WHERE phone = '+79550000000'",
  );
  const userId = picked[0]!.id;
  const { token } = await createSession(db, userId, {
    userAgent: 'bench',
    ip: '127.0.0.1',
    now: new Date(),
  });

  const server = await startServer(options, url);
  try {
    const runs = 21;
    const get = async (path: string) => {
      const answer = await call(server.url, 'GET', path, { token });
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const historyFirstPageMs = await timed(runs, () => get('/v2/wallet/transaction'));
    // 25 pages in: the cursor keeps a deep page an index range too.
    let cursor: string | null = null;
    for (let i = 0; i < 25; i++) {
      const page: { next: string | null } = await get(
        `/v2/wallet/transaction${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      cursor = page.next;
    }
    const historyDeepPageMs = await timed(runs, () =>
      get(`/v2/wallet/transaction?cursor=${encodeURIComponent(cursor ?? '')}`),
    );
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const yearStart = yearAgo.toISOString().slice(0, 10);
    const statMonthMs = await timed(runs, () => get(`/v2/wallet/stat?date_from=${monthAgo}`));
    const statYearMs = await timed(runs, () => get(`/v2/wallet/stat?date_from=${yearStart}`));
    const notificationsMs = await timed(runs, () => get('/v2/wallet/user/notification?limit=20'));
    const marked = await call(server.url, 'POST', '/v2/wallet/user/notification/read', { token, body: {} });
    if (marked.status !== 200) throw new Error(`notification/read: ${marked.status}`);
    const notificationsAllReadMs = await timed(runs, () => get('/v2/wallet/user/notification?limit=20'));
    // The last month's statement of the user's account: about 80 of its 1,000 operations, streamed.
    const wallet: { results: { accounts: { id: string }[] }[] } = await get('/v2/wallet');
    const today = new Date().toISOString().slice(0, 10);
    const statementMonthMs = await timed(runs, () =>
      get(
        `/v2/wallet/statement?account=${wallet.results[0]!.accounts[0]!.id}&date_from=${monthAgo}&date_to=${today}&format=csv`,
      ),
    );
    // The plans the server runs: its statements are prepared and planned once for any values
    // (plan_cache_mode, db/client.ts), so each is explained as a prepared statement executed
    // with the bench's own values (a user id, a date, a page size). The texts are those that
    // `transactionsOf` and `statOf` (modules/wallet/service.ts) build for a first page and a year.
    const explain = (sql: string, params: (string | number | Date)[]) =>
      db.tx(async (q) => {
        await q.exec(`PREPARE bench_plan AS ${sql}`);
        const values = params.map((p) => `'${p instanceof Date ? p.toISOString() : p}'`).join(', ');
        const { rows } = await q.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_plan(${values})`,
        );
        await q.exec('DEALLOCATE bench_plan');
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    const plans = {
      history: await explain(
        `SELECT e.id AS entry_id, e.transfer_id, e.account_id, e.amount, e.currency, e.kind, e.created_at, t.status,
           t.description
         FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
         WHERE e.user_id = $1 AND e.phase IN ('single', 'hold')
         ORDER BY e.created_at DESC, e.id DESC LIMIT $2`,
        [userId, 21],
      ),
      statYear: await explain(
        `SELECT e.kind, sum(abs(e.amount))::bigint AS amount, count(*)::integer AS count FROM ledger_entries e
         WHERE e.user_id = $1 AND e.phase IN ('single', 'post') AND e.currency = $2 AND e.opened_at >= $3
           AND e.created_at >= $3
         GROUP BY e.kind`,
        [userId, 'RUB', yearAgo],
      ),
    };
    // The plan's first line of buffers is its top node's: every page the statement read.
    const buffers = (plan: string) =>
      [...(/Buffers: (.*)/.exec(plan)?.[1] ?? '').matchAll(/(?:hit|read)=(\d+)/g)].reduce(
        (sum, m) => sum + Number(m[1]),
        0,
      );
    return {
      transfers: rows,
      users,
      seedSeconds,
      historyFirstPageMs,
      historyDeepPageMs,
      statMonthMs,
      statYearMs,
      notificationsMs,
      notificationsAllReadMs,
      statementMonthMs,
      historyBuffers: buffers(plans.history),
      statYearBuffers: buffers(plans.statYear),
      plans,
    };
  } finally {
    await server.stop();
  }
}
