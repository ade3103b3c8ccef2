/**
 * Polling a status until it is final (the top-up result page: every 5000 ms,
 * docs/product.md#business-constants-and-limits).
 * Asks at once, then again `intervalMs` after each answer (never two requests at a time); a failed
 * request counts as 'still waiting'. Stops at a final status or when the returned stop is called.
 */
import { onLiveEvent } from '../../live/event-stream.ts';

export const TOP_UP_POLL_MS = 5000;

export interface PollOptions<T> {
  load: (signal: AbortSignal) => Promise<T>;
  isFinal: (result: T) => boolean;
  onResult: (result: T) => void;
  intervalMs: number;
}

export function pollUntilFinal<T>({ load, isFinal, onResult, intervalMs }: PollOptions<T>): () => void {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function tick() {
    if (controller.signal.aborted) return;
    try {
      const result = await load(controller.signal);
      if (controller.signal.aborted) return;
      onResult(result);
      if (isFinal(result)) return;
    } catch {
      if (controller.signal.aborted) return;
      // No answer this time: ask again at the next tick.
    }
    timer = setTimeout(tick, intervalMs);
  }

  void tick();
  // An operation on the live stream (a top-up credited) asks at once instead of at the next tick.
  const stopWaking = onLiveEvent((event) => {
    if (event.event !== 'transaction' || controller.signal.aborted || timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    void tick();
  });
  return () => {
    controller.abort();
    stopWaking();
    if (timer !== undefined) clearTimeout(timer);
  };
}

export type TopUpStage = 'waiting' | 'success' | 'failed';

/**
 * complete -> success, failed -> failed, anything else keeps waiting
 * (docs/product.md#states-and-transitions).
 */
export function topUpStage(status: string | null | undefined): TopUpStage {
  if (status === 'complete') return 'success';
  if (status === 'failed') return 'failed';
  return 'waiting';
}
