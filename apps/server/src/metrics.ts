/**
 * Operators' metrics in Prometheus's text format (prom-client): requests by route, the database pool,
 * ledger movements, provider calls and failures, event streams, and the process's own figures.
 * They are served by a listener of their own on METRICS_HOST:METRICS_PORT (127.0.0.1 by default),
 * never on the public port: see docs/operations.md ("Metrics").
 */
import { createServer, type Server } from 'node:http';
import client from 'prom-client';
import type { Db } from './db/client.ts';
import type { Jobs } from './jobs/index.ts';

export interface Metrics {
  readonly registry: client.Registry;
  /** Times one answered request: method, the route's pattern (never the raw path) and status. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Wraps a provider so every call it makes is counted, with its failures and duration. */
  instrumentProvider<T extends object>(kind: 'sms' | 'payments' | 'payouts' | 'rates', provider: T): T;
  /** Open event streams (gauge; stays 0 until the server has streams). */
  readonly eventStreams: client.Gauge;
}

/** Methods of a provider that are its own housekeeping, not calls to the provider. */
const NOT_CALLS = new Set(['supports', 'runDue', 'deliverDue', 'setTransport', 'constructor']);

export function createMetrics(db: Db, jobs?: Jobs): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'wallet_' });
  if (jobs) jobMetrics(registry, jobs);

  const requests = new client.Histogram({
    name: 'wallet_http_request_duration_seconds',
    help: 'Answered HTTP requests by method, route pattern and status, and how long they took',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new client.Gauge({
    name: 'wallet_db_pool_connections',
    help: 'Database pool connections of this instance by state (total, idle, waiting clients)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = db.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });

  // Read from PostgreSQL's own statistics at scrape time (no count over the ledger): rows inserted into
  // the ledger's tables on the node serving this instance. A counter: it restarts on a failover.
  new client.Counter({
    name: 'wallet_ledger_rows_inserted_total',
    help: 'Ledger movements: rows inserted into ledger_transfers and ledger_entries (database statistics of the current primary)',
    labelNames: ['table'] as const,
    registers: [registry],
    async collect() {
      if (db.kind !== 'postgres') return;
      try {
        const { rows } = await db.query<{ relname: string; inserted: string | bigint }>(
          `SELECT relname, n_tup_ins AS inserted FROM pg_stat_user_tables
           WHERE relname IN ('ledger_transfers', 'ledger_entries')`,
        );
        this.reset();
        for (const row of rows) this.inc({ table: row.relname }, Number(row.inserted));
      } catch {
        // The database is out of reach: the scrape still answers the other metrics.
      }
    },
  });

  const providerCalls = new client.Counter({
    name: 'wallet_provider_calls_total',
    help: 'Calls to external providers by provider kind, method and outcome (ok, failed)',
    labelNames: ['provider', 'method', 'outcome'] as const,
    registers: [registry],
  });
  const providerSeconds = new client.Histogram({
    name: 'wallet_provider_call_duration_seconds',
    help: 'How long calls to external providers took',
    labelNames: ['provider', 'method'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  const eventStreams = new client.Gauge({
    name: 'wallet_event_streams_open',
    help: 'Event streams open to clients on this instance',
    registers: [registry],
  });

  return {
    registry,
    eventStreams,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route, status: String(status) }, seconds);
    },
    instrumentProvider(kind, provider) {
      return new Proxy(provider, {
        // The provider's own `this` (not the proxy) in getters and methods: its private fields stay readable.
        get(target, property) {
          const value = Reflect.get(target, property);
          if (typeof value !== 'function') return value;
          if (typeof property !== 'string' || NOT_CALLS.has(property)) return value.bind(target);
          return (...args: unknown[]) => {
            const started = performance.now();
            const labels = { provider: kind, method: property };
            const done = (outcome: 'ok' | 'failed') => {
              providerCalls.inc({ ...labels, outcome });
              providerSeconds.observe(labels, (performance.now() - started) / 1000);
            };
            let result: unknown;
            try {
              result = (value as (...a: unknown[]) => unknown).apply(target, args);
            } catch (error) {
              done('failed');
              throw error;
            }
            if (result instanceof Promise) {
              return result.then(
                (answer) => {
                  done('ok');
                  return answer;
                },
                (error: unknown) => {
                  done('failed');
                  throw error;
                },
              );
            }
            done('ok');
            return result;
          };
        },
      });
    },
  };
}

/**
 * Each queue of the job system at scrape time (docs/decisions/jobs.md#one-job-system): jobs waiting, running,
 * failed and dead, and the age of the oldest waiting one. Read once per scrape for all five.
 */
function jobMetrics(registry: client.Registry, jobs: Jobs): void {
  let reading: Promise<Awaited<ReturnType<Jobs['figures']>>> | null = null;
  const figures = () => {
    reading ??= jobs
      .figures()
      .catch(() => [])
      .finally(() => {
        setTimeout(() => {
          reading = null;
        }, 1000).unref();
      });
    return reading;
  };
  const gauge = (
    name: string,
    help: string,
    value: (f: Awaited<ReturnType<Jobs['figures']>>[number]) => number,
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        if (!jobs.running) return;
        this.reset();
        for (const queue of await figures()) this.set({ queue: queue.queue }, value(queue));
      },
    });
  gauge('wallet_jobs_queued', 'Jobs waiting in each queue (due or not)', (f) => f.queued);
  gauge('wallet_jobs_active', 'Jobs running now in each queue', (f) => f.active);
  gauge('wallet_jobs_failed', 'Failed jobs each queue still keeps', (f) => f.failed);
  gauge('wallet_jobs_dead', "Jobs in each queue's dead-letter queue, waiting for an operator", (f) => f.dead);
  gauge('wallet_jobs_oldest_age_seconds', 'Age of the oldest waiting job of each queue', (f) =>
    f.oldest_at ? Math.max(0, (Date.now() - Date.parse(f.oldest_at)) / 1000) : 0,
  );
}

/**
 * The metrics listener: GET /metrics on its own address, apart from the public API, so the figures
 * never reach the internet through the public port or the load balancer.
 */
export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
