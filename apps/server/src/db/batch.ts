/**
 * Reads by key, batched across concurrent requests: every key asked for during one turn of the
 * event loop is read by one query (DataLoader, scheduled with setImmediate so that all requests
 * parsed in one poll phase share it): one round trip for a whole turn instead of one per request
 * (docs/performance.md#reads-batched-per-turn).
 *
 * Nothing is cached: a batch is read after every request in it arrived, so each still sees every
 * write committed before it. Only reads on the database itself are batched; inside a transaction
 * (`db.tx`) a read goes straight to that transaction's connection.
 */
import DataLoader from 'dataloader';
import { isDb, type Queryable, remembered } from './client.ts';

const MAX_BATCH = 200;

export type BatchedRead<K, V> = (q: Queryable, key: K) => Promise<V | undefined>;

export function batchedRead<K, V>(
  read: (q: Queryable, keys: readonly K[]) => Promise<Map<K, V>>,
): BatchedRead<K, V> {
  const key = Symbol('batched read');
  return async (q, wanted) => {
    // A transaction's reads stay on its own connection, in its own order.
    if (!isDb(q)) return (await read(q, [wanted])).get(wanted);
    const loader = remembered(
      q,
      key,
      () =>
        new DataLoader<K, V | undefined>(
          async (keys) => {
            const found = await read(q, [...new Set(keys)]);
            return keys.map((k) => found.get(k));
          },
          { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setImmediate(run) },
        ),
    );
    return loader.load(wanted);
  };
}
