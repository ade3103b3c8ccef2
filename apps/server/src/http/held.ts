/**
 * A money call whose money was held instead of sent
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person) answers 202 with the contract's
 * `HeldAnswer`: the money-call pipeline throws this, and `route` answers it for every call the contract marks
 * as moving money, so no service writes a second kind of answer.
 */
import type { HeldAnswer } from '@e-wallet/contract';

export class CallHeld extends Error {
  readonly answer: HeldAnswer;
  constructor(answer: HeldAnswer) {
    super(`money call ${answer.status}: ${answer.hold_id}`);
    this.name = 'CallHeld';
    this.answer = answer;
  }
}

/** A stored answer that is a held call's (a repeat of its Idempotency-Key answers the same 202). */
export function isHeldAnswer(answer: unknown): answer is HeldAnswer {
  if (!answer || typeof answer !== 'object') return false;
  const { status, hold_id } = answer as Record<string, unknown>;
  return (status === 'held' || status === 'awaiting_approval') && typeof hold_id === 'string';
}
