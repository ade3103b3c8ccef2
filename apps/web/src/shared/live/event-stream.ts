/**
 * The live wallet's stream in the app (docs/decisions/live-wallet.md#the-live-wallet): GET /v2/wallet/events
 * read with fetch, since EventSource cannot send the Authorization header. Every tab holds its own stream. It
 * reconnects quietly (growing pauses with jitter, no message on screen) with Last-Event-ID, so nothing
 * is missed; a stream silent for longer than two heartbeats is taken as broken. INVALID_TOKEN before the
 * stream, or a `session` event, signs out as any call's INVALID_TOKEN does.
 */
import { create } from 'zustand';
import i18n from '../i18n/i18n.ts';
import { signOutLocally } from '../session/sign-out.ts';
import { getAuthToken } from '../store/session-store.ts';

export interface LiveEvent {
  event: string;
  data: unknown;
}

/** Whether the stream is up: polling is only the fallback for when it is not. */
export const useLiveStore = create<{ connected: boolean }>(() => ({ connected: false }));

export function liveConnected(): boolean {
  return useLiveStore.getState().connected;
}

const listeners = new Set<(event: LiveEvent) => void>();

/** Hears every event of the stream (transaction, balance, notification, ready); answers an unsubscribe. */
export function onLiveEvent(listener: (event: LiveEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: LiveEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      console.error('Unhandled Error', error);
    }
  }
}

/** The server's heartbeat comes every 20 s; silence for this long means the connection is gone. */
const SILENCE_MS = 45_000;
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30_000;

/** Parses text/event-stream blocks; answers the events and what is left of an unfinished block. */
export function parseEvents(text: string): { events: (LiveEvent & { id?: string })[]; rest: string } {
  const events: (LiveEvent & { id?: string })[] = [];
  const blocks = text.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let name = 'message';
    let data = '';
    let id: string | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') name = value;
      else if (field === 'data') data += data ? `\n${value}` : value;
      else if (field === 'id') id = value;
    }
    let parsed: unknown = null;
    if (data) {
      try {
        parsed = JSON.parse(data);
      } catch {
        continue;
      }
    }
    events.push({ event: name, data: parsed, id });
  }
  return { events, rest };
}

/** Whether this page has started a stream: the first one's data were asked from the page's first script. */
let pageStreamed = false;
/** How far back a new stream may ask (the server's bound). */
const REPLAY_MAX_MS = 60_000;

/**
 * Keeps the stream open while signed in; answers a stop. `onEvent` gets each named event; an event
 * carrying an id moves the resume point only once it is whole. Until it has started, the stream asks
 * for what changed since its data were asked (`replay_ms`), so nothing between the two is missed.
 */
export function startEventStream(): () => void {
  let stopped = false;
  let lastEventId: string | null = null;
  let dataAskedAt: number | null = pageStreamed ? performance.now() : 0;
  pageStreamed = true;
  let attempt = 0;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const setConnected = (connected: boolean) => {
    if (useLiveStore.getState().connected !== connected) useLiveStore.setState({ connected });
  };

  async function connect(): Promise<void> {
    const token = getAuthToken();
    if (stopped || !token) return;
    controller = new AbortController();
    const current = controller;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(silence);
      silence = setTimeout(() => current.abort(), SILENCE_MS);
    };
    try {
      const headers: Record<string, string> = {
        Accept: 'text/event-stream',
        Authorization: `Token ${token}`,
        'Accept-Language': i18n.language || 'ru',
      };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      watch();
      const replay =
        dataAskedAt === null
          ? ''
          : `?replay_ms=${Math.min(REPLAY_MAX_MS, Math.round(performance.now() - dataAskedAt))}`;
      const response = await fetch(`/v2/wallet/events${replay}`, {
        headers,
        signal: current.signal,
        cache: 'no-store',
      });
      if (response.status === 401) {
        const answer = (await response.json().catch(() => null)) as { code?: string } | null;
        if (answer?.code === 'INVALID_TOKEN' && getAuthToken() === token) signOutLocally();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        watch();
        buffer += decoder.decode(value, { stream: true });
        const { events, rest } = parseEvents(buffer);
        buffer = rest;
        for (const event of events) {
          if (event.event === 'ready') {
            attempt = 0;
            dataAskedAt = null;
            setConnected(true);
          }
          if (event.event === 'session') {
            if (getAuthToken() === token) signOutLocally();
            return;
          }
          if (event.event !== 'message' || event.data !== null) emit(event);
          if (event.id !== undefined) lastEventId = event.id;
        }
      }
    } catch {
      // Broken or cut off: reconnect below.
    } finally {
      clearTimeout(silence);
      setConnected(false);
    }
    if (stopped) return;
    attempt += 1;
    const pause = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.min(attempt - 1, 5));
    retryTimer = setTimeout(() => void connect(), pause / 2 + Math.random() * (pause / 2));
  }

  void connect();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    controller?.abort();
    setConnected(false);
  };
}
