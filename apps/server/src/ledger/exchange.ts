/**
 * An exchange between a person's own accounts, through its one door: `ledger_exchange`
 * (db/functions/exchange.sql), which locks the person, proves the PIN, claims the idempotency key,
 * uses the quote once, asks limits.sql and moves both legs in one statement.
 */
import type { CallName } from '@e-wallet/contract';
import type { Queryable } from '../db/client.ts';
import type { SidedText } from './index.ts';
import type { Refusal } from './payments.ts';

export interface ExchangeInput {
  quoteId: string;
  person: string;
  /** Ids of the two transfers: out of the from-account, into the to-account. */
  outId: string;
  inId: string;
  description: SidedText & Record<string, unknown>;
  at: Date;
  /** The level figures in force: `config.levelRulesJson`. */
  rules: string;
  pinProof: Buffer;
  call: { name: CallName; key: string | null; requestHash: string; answer: unknown };
}

export type ExchangeOutcome =
  | { outcome: 'created' }
  | { outcome: 'repeated'; requestHash: string; answer: unknown }
  | { outcome: 'refused'; refusal: Refusal };

const EXCHANGE_SQL = `SELECT outcome, refusal, first_request_hash, first_answer FROM ledger_exchange(
  quote_id => $1::uuid, person => $2::uuid, out_id => $3::uuid, in_id => $4::uuid, description => $5::jsonb,
  at => $6::timestamptz, rules => $7::jsonb, pin_proof => $8::bytea, call_name => $9::text,
  call_key => $10::text, request_hash => $11::text, answer => $12::jsonb)`;

export async function exchange(q: Queryable, input: ExchangeInput): Promise<ExchangeOutcome> {
  const { rows } = await q.query<{
    outcome: ExchangeOutcome['outcome'];
    refusal: Refusal | null;
    first_request_hash: string | null;
    first_answer: unknown;
  }>(EXCHANGE_SQL, [
    input.quoteId,
    input.person,
    input.outId,
    input.inId,
    JSON.stringify(input.description),
    input.at,
    input.rules,
    input.pinProof,
    input.call.name,
    input.call.key,
    input.call.requestHash,
    input.call.key !== null ? JSON.stringify(input.call.answer) : null,
  ]);
  const row = rows[0]!;
  if (row.outcome === 'repeated')
    return { outcome: 'repeated', requestHash: row.first_request_hash ?? '', answer: row.first_answer };
  if (row.outcome === 'refused') return { outcome: 'refused', refusal: row.refusal! };
  return { outcome: 'created' };
}
