import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollUntilFinal, TOP_UP_POLL_MS, topUpStage } from './status-polling.ts';

type Status = { status: string };

describe('top-up status polling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start(answers: (Status | Error)[]) {
    const load = vi.fn(async () => {
      const next = answers.shift() ?? { status: 'pending' };
      if (next instanceof Error) throw next;
      return next;
    });
    const results: string[] = [];
    const stop = pollUntilFinal<Status>({
      load,
      isFinal: (answer) => topUpStage(answer.status) !== 'waiting',
      onResult: (answer) => results.push(topUpStage(answer.status)),
      intervalMs: TOP_UP_POLL_MS,
    });
    return { load, results, stop };
  }

  it('asks at once, then every 5000 ms until the order completes', async () => {
    const { load, results } = start([{ status: 'pending' }, { status: 'pending' }, { status: 'complete' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(load).toHaveBeenCalledTimes(3);
    expect(results).toEqual(['waiting', 'waiting', 'success']);
    // Final: no more requests.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('stops at failed', async () => {
    const { load, results } = start([{ status: 'failed' }]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(load).toHaveBeenCalledTimes(1);
    expect(results).toEqual(['failed']);
  });

  it('keeps waiting through a failed request and an unknown status', async () => {
    const { load, results } = start([
      new Error('offline'),
      { status: 'something-new' },
      { status: 'complete' },
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(3);
    expect(results).toEqual(['waiting', 'success']);
  });

  it('asks no more once stopped (the page was left)', async () => {
    const { load, stop } = start([]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(load).toHaveBeenCalledTimes(2);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('maps statuses to the modal stage', () => {
    expect(topUpStage('complete')).toBe('success');
    expect(topUpStage('failed')).toBe('failed');
    expect(topUpStage('pending')).toBe('waiting');
    expect(topUpStage(undefined)).toBe('waiting');
  });
});
