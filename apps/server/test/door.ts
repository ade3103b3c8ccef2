/**
 * The person's door as the tests drive it directly (under the money-call pipeline): a payment with its
 * PIN proof and call, as `openDoor` takes them apart.
 */
import type { Queryable } from '../src/db/client.ts';
import { type Confirmed, type DoorOutcome, openDoor, type Payment } from '../src/ledger/index.ts';

export type PaymentInput = Omit<Payment, 'door'> & Confirmed;

export function pay(q: Queryable, input: PaymentInput): Promise<DoorOutcome> {
  const { pinProof, call, ...payment } = input;
  return openDoor(q, { door: 'pay', ...payment }, { pinProof, call });
}
