import { describe, expect, it } from 'vitest';
import { parseEvents } from './event-stream.ts';

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
