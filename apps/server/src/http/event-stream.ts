/** Server-sent events: a reply taken over as a `text/event-stream` (the app's and the back office's streams). */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/** Answers 200 with the stream's headers and hands over the raw response to write events to. */
export function openEventStream(reply: FastifyReply): ServerResponse {
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // Proxies (nginx) pass the events on at once instead of buffering them.
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  raw.socket?.setNoDelay(true);
  return raw;
}
