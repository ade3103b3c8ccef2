import { describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../store/session-store.ts';
import { parseEvents, startEventStream } from './event-stream.ts';

describe('parseEvents', () => {
  it('reads named events with their ids, skips comments, and keeps an unfinished block', () => {
    const text =
      'retry: 3000\n\n: ping\n\nevent: transaction\ndata: {"amount":"1.00"}\n\n' +
      'id: 7\nevent: balance\ndata: {"balance":"2.00"}\n\nevent: notif';
    const { events, rest } = parseEvents(text);
    expect(events.filter((e) => e.data !== null)).toEqual([
      { event: 'transaction', data: { amount: '1.00' }, id: undefined },
      { event: 'balance', data: { balance: '2.00' }, id: '7' },
    ]);
    expect(rest).toBe('event: notif');
  });

  it('carries an id on an event without data (nothing to tell) so the resume point moves', () => {
    const { events } = parseEvents('id: 9\n: nothing to tell\n\n');
    expect(events).toEqual([{ event: 'message', data: null, id: '9' }]);
  });
});

describe('startEventStream', () => {
  it('asks a new page’s first stream to replay since the page began; a reconnect resumes by id instead', async () => {
    useSessionStore.setState({ authToken: 'token' });
    const asked: { url: string; lastEventId: string | undefined }[] = [];
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      asked.push({ url, lastEventId: (init.headers as Record<string, string>)['Last-Event-ID'] });
      // Each stream says ready and one event with an id, then ends: the app reconnects.
      const body = 'event: ready\ndata: {"resumed":false}\n\nid: 3.1\nevent: balance\ndata: {}\n\n';
      return new Response(new Blob([body]).stream(), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    const stop = startEventStream();
    await vi.waitFor(() => expect(asked.length).toBeGreaterThanOrEqual(2), { timeout: 3000 });
    stop();
    vi.unstubAllGlobals();
    expect(asked[0]!.url).toMatch(/^\/v2\/wallet\/events\?replay_ms=\d+$/);
    expect(asked[0]!.lastEventId).toBeUndefined();
    expect(asked[1]).toEqual({ url: '/v2/wallet/events', lastEventId: '3.1' });
  });
});
