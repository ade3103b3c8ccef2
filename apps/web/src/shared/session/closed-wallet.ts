/**
 * What closing the wallet did, kept for this tab: the session ends with the closing, so the page that
 * says where the money went (the landing's closed state) reads it from here, not from the server.
 */
import type { AnswerOf } from '@e-wallet/contract';

export type ClosedWallet = Pick<AnswerOf<'closeWallet'>, 'payout'>;

const KEY = 'e-wallet-closed';

export function keepClosedWallet(answer: ClosedWallet): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ payout: answer.payout }));
  } catch {
    // No storage: the landing shows as usual; the SMS still says where the money went.
  }
}

export function closedWallet(): ClosedWallet | null {
  try {
    const kept = sessionStorage.getItem(KEY);
    return kept ? (JSON.parse(kept) as ClosedWallet) : null;
  } catch {
    return null;
  }
}

export function forgetClosedWallet(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
