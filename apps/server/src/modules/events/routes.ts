/**
 * The live wallet's stream (docs/decisions/live-wallet.md#the-live-wallet):
 *   GET /v2/wallet/events   text/event-stream of the signed-in person: transaction, balance,
 *                           notification, session; `Last-Event-ID` resumes, `?replay_ms` starts a
 *                           page's first stream from when it asked for its data; a comment as heartbeat
 * The token is checked by the call table's route before anything is written, so a bad one answers
 * 401 INVALID_TOKEN in the contract's shape; only then does the stream start.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { openEventStream } from '../../http/event-stream.ts';
import { route } from '../../http/route.ts';
import {
  closeEventHub,
  definePruning,
  type EventStream,
  eventHub,
  MAX_BUFFERED_BYTES,
  sseEvent,
} from './hub.ts';

/** How long the app waits before reconnecting after the stream broke (the SSE `retry` field). */
const RETRY_MS = 3000;

export default function eventsRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'events', async ({ auth, language, query, request, reply }) => {
    const header = request.headers['last-event-id'];
    const lastEventId = typeof header === 'string' ? header.trim() : null;
    const hub = eventHub(ctx);
    const raw = openEventStream(reply);
    let open = true;
    const stream: EventStream = {
      userId: auth.userId,
      sessionId: auth.sessionId,
      language,
      place: null,
      write(text) {
        if (!open || raw.destroyed) return false;
        if (raw.writableLength > MAX_BUFFERED_BYTES) {
          stream.close();
          return false;
        }
        raw.write(text);
        return true;
      },
      close() {
        if (!open) return;
        open = false;
        hub.remove(stream);
        raw.end();
      },
    };
    raw.on('close', () => {
      open = false;
      hub.remove(stream);
    });
    raw.write(`retry: ${RETRY_MS}\n\n`);
    await hub
      .open(stream, lastEventId, Number(query.replay_ms ?? 0), (resumed) =>
        stream.write(sseEvent('ready', { resumed })),
      )
      .catch(() => stream.close());
    return undefined as never;
  });

  definePruning(ctx);
  app.addHook('preClose', async () => {
    await closeEventHub(ctx);
  });
}
