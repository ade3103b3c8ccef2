/**
 * What a money call does again when its held money is released
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person). A call whose door is followed by work on
 * its own row (`before` / `after`, a request marked paid) registers that work here under its name; the
 * release (modules/holds) runs `before` with the hold's row locked and before the people (the call's own lock
 * order), and `after` beside the door, in one transaction.
 * A call with work after the commit (a payout's provider call) answers it from `after`: it runs once,
 * after the release committed. `closed` runs when the hold ends without a release (cancelled,
 * declined, expired, refused), in that transaction: what the call kept for its release goes.
 */
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import type { AppError } from '../../errors.ts';
import type { MoneyCallName, Payment } from '../../ledger/index.ts';

export interface ReleaseWork {
  /** The call's own row locked and asked again: its refusal keeps the money held. */
  before?(q: Queryable, door: Payment): Promise<AppError | undefined>;
  /** What the call's outcome changes beside the money, as its own `after` does; and its work after the commit. */
  after(q: Queryable, door: Payment, ctx: AppContext): Promise<undefined | (() => Promise<void>)>;
  /** The hold ended without a release: what the call kept for it goes. */
  closed?(q: Queryable, door: Payment): Promise<void>;
}

const works = new Map<string, ReleaseWork>();

export function onRelease(call: MoneyCallName, work: ReleaseWork): void {
  works.set(call, work);
}

export function releaseWorkOf(call: string): ReleaseWork | undefined {
  return works.get(call);
}
