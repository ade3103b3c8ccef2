/**
 * The live wallet under load (docs/decisions/live-wallet.md#the-live-wallet, docs/performance.md "The live
 * wallet"):
 * 1,000 event streams held open on one server instance (its own process, a fresh PostgreSQL database),
 * then P2P transfers from 10 senders in a closed loop to random stream holders. For every transfer
 * the delay from its HTTP answer to its `transaction` event on the receiver's stream (an event that
 * came before the answer counts as 0), and every transfer's event must arrive. The server's memory
 * for the streams is its RSS (/proc) with the 1,000 streams open against before them, after a
 * collection-free settle of a few seconds each.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type ClientRequest, request } from 'node:http';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { openAccount } from '../apps/server/src/ledger/index.ts';
import { createSession } from '../apps/server/src/sessions/tokens.ts';
import { PIN, prepareUsers } from './http.ts';
import { type BenchDb, log, type Running } from './lib.ts';

export interface LiveResult {
  streams: number;
  transfers: number;
  transfersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  lost: number;
  rssBeforeMiB: number;
  rssWithStreamsMiB: number;
  streamsMiB: number;
  rssAfterLoadMiB: number;
}

const MiB = 1024 * 1024;
const round = (value: number) => Math.round(value * 10) / 10;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return (kib * 1024) / MiB;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Receivers made in the database (a person, a rouble account, a session), faster than 1,000 sign-ups. */
async function makeReceivers(database: BenchDb, count: number): Promise<{ phone: string; token: string }[]> {
  const db = await openPostgres(database.url, 4);
  try {
    const receivers: { phone: string; token: string }[] = [];
    const prefix = `+7955${String(process.pid % 1000).padStart(3, '0')}`;
    for (let index = 0; index < count; index++) {
      const phone = `${prefix}${String(index).padStart(4, '0')}`;
      const token = await db.tx(async (q) => {
        const now = new Date();
        const { rows } = await q.query<{ id: string }>(
          `INSERT INTO users (first_name, last_name, phone, email, identification_level, created_at)
           VALUES ('Получатель', 'Потоков', $1, $2, 'simplified', $3) RETURNING id`,
          [phone, `live${index}.${process.pid}@example.com`, now],
        );
        await openAccount(q, rows[0]!.id, 'RUB', now);
        return (await createSession(q, rows[0]!.id, { userAgent: 'bench', ip: '127.0.0.1', now })).token;
      });
      receivers.push({ phone, token });
    }
    return receivers;
  } finally {
    await db.close();
  }
}

interface Stream {
  request: ClientRequest;
  ready: Promise<void>;
}

/** Opens one stream; `onTransaction` hears each transaction event's id when it arrives. */
function openStream(base: string, token: string, onTransaction: (id: string, at: number) => void): Stream {
  let resolveReady: () => void = () => {};
  let rejectReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  const url = new URL('/v2/wallet/events', base);
  const req = request(
    url,
    { headers: { authorization: `Token ${token}`, accept: 'text/event-stream' } },
    (res) => {
      if (res.statusCode !== 200) return rejectReady(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes('event: ready')) resolveReady();
          else if (block.includes('event: transaction')) {
            const data = block.slice(block.indexOf('data: ') + 6);
            onTransaction((JSON.parse(data) as { id: string }).id, at);
          }
          end = buffer.indexOf('\n\n');
        }
      });
    },
  );
  req.on('error', (error) => rejectReady(error));
  req.end();
  return { request: req, ready };
}

export async function liveBench(
  server: Running,
  database: BenchDb,
  options: { streams: number; senders: number; seconds: number },
): Promise<LiveResult> {
  const pid = server.child.pid!;
  log(`live: making ${options.streams} receivers and ${options.senders} senders`);
  const receivers = await makeReceivers(database, options.streams);
  const senders = await prepareUsers(server, database, options.senders, 10_000_000n);
  // Warm the server's code paths before the memory baseline: one stream and a few transfers.
  const arrived = new Map<string, number>();
  const warm = openStream(server.url, receivers[0]!.token, (id, at) => arrived.set(id, at));
  await warm.ready;
  for (let i = 0; i < 20; i++) await transfer(server.url, senders[0]!.token, receivers[0]!.phone);
  warm.request.destroy();
  await settle(3000);
  const rssBefore = rssOf(pid);

  log(`live: opening ${options.streams} streams`);
  const streams: Stream[] = [];
  for (let index = 0; index < receivers.length; index += 50) {
    const batch = receivers
      .slice(index, index + 50)
      .map((receiver) => openStream(server.url, receiver.token, (id, at) => arrived.set(id, at)));
    await Promise.all(batch.map((stream) => stream.ready));
    streams.push(...batch);
  }
  await settle(3000);
  const rssWithStreams = rssOf(pid);
  log(`live: RSS ${round(rssBefore)} MiB before, ${round(rssWithStreams)} MiB with the streams`);

  const answered = new Map<string, number>();
  const deadline = Date.now() + options.seconds * 1000;
  let next = 0;
  const senderLoop = async (sender: { token: string }) => {
    while (Date.now() < deadline) {
      const receiver = receivers[next++ % receivers.length]!;
      const id = await transfer(server.url, sender.token, receiver.phone);
      answered.set(id, performance.now());
    }
  };
  const started = performance.now();
  await Promise.all(senders.map(senderLoop));
  const elapsed = (performance.now() - started) / 1000;
  // The last events: give them a second to come.
  await settle(1000);
  const rssAfter = rssOf(pid);
  for (const stream of streams) stream.request.destroy();

  const delays: number[] = [];
  let lost = 0;
  for (const [id, answeredAt] of answered) {
    const at = arrived.get(id);
    if (at === undefined) lost++;
    else delays.push(Math.max(0, at - answeredAt));
  }
  delays.sort((a, b) => a - b);
  const quantile = (q: number) =>
    round(delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? 0);
  return {
    streams: streams.length,
    transfers: answered.size,
    transfersPerSecond: Math.round(answered.size / elapsed),
    p50Ms: quantile(0.5),
    p99Ms: quantile(0.99),
    maxMs: round(delays[delays.length - 1] ?? 0),
    lost,
    rssBeforeMiB: round(rssBefore),
    rssWithStreamsMiB: round(rssWithStreams),
    streamsMiB: round(rssWithStreams - rssBefore),
    rssAfterLoadMiB: round(rssAfter),
  };
}

/** One transfer of 1.00 RUB; answers its id (the receipt's, the operation's in the history). */
async function transfer(base: string, token: string, phone: string): Promise<string> {
  const response = await fetch(`${base}/v2/wallet/transfer`, {
    method: 'POST',
    headers: {
      authorization: `Token ${token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ phone, amount: '1.00', currency_code: 'RUB', pin: PIN }),
  });
  const body = (await response.json()) as { receipt?: { id: string } };
  if (response.status !== 200 || !body.receipt)
    throw new Error(`transfer: ${response.status} ${JSON.stringify(body)}`);
  return body.receipt.id;
}
