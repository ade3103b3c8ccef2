/**
 * The pay modal's stages (docs/product.md 'Pay modal stages', docs/product.md#states-and-transitions): it
 * opens at PIN entry; sending waits for the answer; an error answer shows the failed stage, any other the
 * success stage; the success stage leads to the receipt (DETAILS); a failed one back to PIN entry.
 * A pure reducer, so every transition is tested without a browser.
 */
import type { HeldAnswer } from '@e-wallet/contract';
import type { PayOutcome, Receipt } from './pay-outcome.ts';

export type PayStage = 'enterPin' | 'waiting' | 'success' | 'failed' | 'details' | 'held';

export interface PayState {
  stage: PayStage;
  /** The failed stage's server message, or the success stage's. */
  message: string | null;
  /** The failed stage's error code (null when no answer came). */
  code?: string | null;
  receipt: Receipt | null;
  /**
   * The held stage's answer: the operation waits
   * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
   */
  held?: HeldAnswer | null;
}

export type PayEvent =
  | { type: 'submit' }
  | { type: 'answered'; outcome: PayOutcome }
  | { type: 'showDetails' }
  | { type: 'hideDetails' }
  | { type: 'retry' }
  | { type: 'receiptUpdated'; receipt: Receipt }
  | { type: 'reset' };

export const initialPayState: PayState = { stage: 'enterPin', message: null, receipt: null };

/**
 * What the failed stage offers: a wrong PIN is typed again (no 'later'); a lock-out or a refusal
 * that a new PIN cannot change offers no retry; only no answer or a passing fault says 'later'.
 */
export function failureOffer(code: string | null | undefined): { retry: boolean; later: boolean } {
  if (code === 'PIN_INVALID') return { retry: true, later: false };
  if (code === null || code === undefined) return { retry: true, later: true };
  if (code === 'PROVIDER_UNAVAILABLE' || code === 'RATE_LIMITED' || code === 'INTERNAL_ERROR')
    return { retry: true, later: true };
  return { retry: false, later: false };
}

/** The close icon is hidden while the answer is awaited (the page must stay open). */
export function canClose(stage: PayStage): boolean {
  return stage !== 'waiting';
}

export function payReducer(state: PayState, event: PayEvent): PayState {
  switch (event.type) {
    case 'submit':
      return state.stage === 'enterPin' ? { ...state, stage: 'waiting', message: null } : state;
    case 'answered':
      if (state.stage !== 'waiting') return state;
      if (event.outcome.status === 'held')
        return { stage: 'held', message: event.outcome.message, receipt: null, held: event.outcome.held };
      return event.outcome.status === 'error'
        ? { stage: 'failed', message: event.outcome.message, code: event.outcome.code, receipt: null }
        : { stage: 'success', message: event.outcome.message, receipt: event.outcome.receipt };
    case 'showDetails':
      return state.stage === 'success' && state.receipt ? { ...state, stage: 'details' } : state;
    case 'hideDetails':
      return state.stage === 'details' ? { ...state, stage: 'success' } : state;
    case 'retry':
      return state.stage === 'failed' ? { ...initialPayState } : state;
    case 'receiptUpdated':
      return state.receipt && state.receipt.id === event.receipt.id
        ? { ...state, receipt: event.receipt }
        : state;
    case 'reset':
      return initialPayState;
  }
}
