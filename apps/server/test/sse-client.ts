/** A small text/event-stream reader over fetch (as the app reads the stream: a header, no EventSource). */
export interface SseEvent {
  event: string;
  data: any;
  id?: string;
}

export interface SseClient {
  status: number;
  events: SseEvent[];
  /** The next event named `name` (or any, without a name) not yet taken, waiting up to `timeoutMs`. */
  next(name?: string, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  lastId: string | undefined;
  close(): void;
}

export async function openStream(
  base: string,
  token: string,
  options: { lastEventId?: string; language?: string; path?: string } = {},
): Promise<SseClient> {
  const abort = new AbortController();
  const headers: Record<string, string> = { authorization: `Token ${token}`, accept: 'text/event-stream' };
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  if (options.language) headers['accept-language'] = options.language;
  const response = await fetch(`${base}${options.path ?? '/v2/wallet/events'}`, {
    headers,
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  let taken = 0;
  let wake = null as (() => void) | null;
  const client: SseClient = {
    status: response.status,
    events,
    lastId: options.lastEventId,
    ended: Promise.resolve(),
    async next(name, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (taken < events.length) {
          const event = events[taken++]!;
          if (!name || event.event === name) return event;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no '${name ?? 'any'}' event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, left);
        });
      }
    },
    close: () => abort.abort(),
  };
  if (!response.body) return client;
  client.ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          let data = '';
          let id: string | undefined;
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
            else if (line.startsWith('id: ')) id = line.slice(4);
          }
          if (id !== undefined) client.lastId = id;
          if (data) events.push({ event, data: JSON.parse(data), id });
          end = buffer.indexOf('\n\n');
        }
        wake?.();
      }
    } catch {}
    wake?.();
  })();
  return client;
}
