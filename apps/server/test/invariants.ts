/**
 * The ledger's invariants as a test step, shared by every money test: call it after each test
 * (`afterEach(() => expectLedgerSound(server))`). The checks themselves live in fund.ts
 * (`ledgerViolations`): balances equal their entries, each currency sums to zero, pending debits equal
 * pending credits, no user account below zero, every settled hold settled exactly once.
 */
import { expect } from 'vitest';
import type { Queryable } from '../src/db/client.ts';
import { ledgerViolations } from './fund.ts';

export { ledgerViolations };

export async function expectLedgerSound(server: { ctx: { db: Queryable } }): Promise<void> {
  expect(await ledgerViolations(server.ctx.db)).toEqual([]);
}
