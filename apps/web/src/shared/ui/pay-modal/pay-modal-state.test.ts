import { describe, expect, it } from 'vitest';
import {
  canClose,
  failureOffer,
  initialPayState,
  type PayEvent,
  type PayState,
  payReducer,
} from './pay-modal-state.ts';
import type { Receipt } from './pay-outcome.ts';

const receipt: Receipt = {
  id: '0f8c2a52-7c3e-4d53-9a51-1b1f0b1c9e01',
  kind: 'withdrawal',
  status: 'pending',
  amount: '-1500.00',
  currency_code: 'RUB',
  created_at: '2026-05-01T10:00:00.000Z',
  description: 'Вывод на карту',
  counterparty: null,
  card: '411111******1111',
  failure_reason: null,
};

const run = (events: PayEvent[], from: PayState = initialPayState) => events.reduce(payReducer, from);
const success = { type: 'answered', outcome: { status: 'success', message: 'ok', receipt } } as const;
const failure = {
  type: 'answered',
  outcome: { status: 'error', message: 'Неверный PIN-код', code: 'PIN_INVALID' },
} as const;

describe('failureOffer', () => {
  it('a wrong PIN retries without "later"; a lock-out or a refusal offers neither; no answer offers both', () => {
    expect(failureOffer('PIN_INVALID')).toEqual({ retry: true, later: false });
    expect(failureOffer('PIN_LOCKED')).toEqual({ retry: false, later: false });
    expect(failureOffer('INSUFFICIENT_FUNDS')).toEqual({ retry: false, later: false });
    expect(failureOffer('WALLET_FROZEN')).toEqual({ retry: false, later: false });
    expect(failureOffer(null)).toEqual({ retry: true, later: true });
    expect(failureOffer('PROVIDER_UNAVAILABLE')).toEqual({ retry: true, later: true });
  });
});

describe('pay modal stages', () => {
  it('opens at PIN entry and waits after sending', () => {
    expect(initialPayState.stage).toBe('enterPin');
    expect(run([{ type: 'submit' }]).stage).toBe('waiting');
  });

  it('goes to success with the receipt, then to the details and back', () => {
    const done = run([{ type: 'submit' }, success]);
    expect(done).toEqual({ stage: 'success', message: 'ok', receipt });
    expect(run([{ type: 'showDetails' }], done).stage).toBe('details');
    expect(run([{ type: 'showDetails' }, { type: 'hideDetails' }], done).stage).toBe('success');
  });

  it('goes to failed with the server message, and a retry starts at PIN entry again', () => {
    const failed = run([{ type: 'submit' }, failure]);
    expect(failed).toEqual({
      stage: 'failed',
      message: 'Неверный PIN-код',
      code: 'PIN_INVALID',
      receipt: null,
    });
    expect(run([{ type: 'retry' }], failed)).toEqual(initialPayState);
  });

  it('ignores events that do not belong to the stage', () => {
    // An answer without a send, a second send while waiting, details without a receipt.
    expect(run([success])).toEqual(initialPayState);
    expect(run([{ type: 'submit' }, { type: 'submit' }]).stage).toBe('waiting');
    expect(run([{ type: 'showDetails' }])).toEqual(initialPayState);
    expect(run([{ type: 'submit' }, failure, { type: 'showDetails' }]).stage).toBe('failed');
    expect(run([{ type: 'retry' }])).toEqual(initialPayState);
    // A late second answer does not overwrite the first.
    expect(run([{ type: 'submit' }, success, failure]).stage).toBe('success');
  });

  it('follows the receipt of the same operation only', () => {
    const done = run([{ type: 'submit' }, success, { type: 'showDetails' }]);
    const failedPayout = { ...receipt, status: 'failed' as const, failure_reason: 'Карта отклонена' };
    expect(run([{ type: 'receiptUpdated', receipt: failedPayout }], done).receipt).toEqual(failedPayout);
    const other = { ...failedPayout, id: '11111111-1111-4111-8111-111111111111' };
    expect(run([{ type: 'receiptUpdated', receipt: other }], done).receipt).toEqual(receipt);
  });

  it('hides the close icon only while waiting', () => {
    expect(canClose('enterPin')).toBe(true);
    expect(canClose('waiting')).toBe(false);
    expect(canClose('success')).toBe(true);
    expect(canClose('failed')).toBe(true);
    expect(canClose('details')).toBe(true);
  });

  it('starts over on reset', () => {
    expect(run([{ type: 'submit' }, success, { type: 'reset' }])).toEqual(initialPayState);
  });
});
