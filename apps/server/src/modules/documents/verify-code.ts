/**
 * The code of a receipt's public page (/verify/<code>): the transfer's id and the side it was issued
 * for, signed with an HMAC keyed by a server secret, so a code cannot be guessed or altered. 16 bytes
 * of id, 1 byte of side, 16 bytes (128 bits) of HMAC-SHA-256, in base64url: 44 characters.
 * The key derives from PIN_KEY as the idempotency fingerprint's does (production refuses to start
 * without a PIN_KEY of its own), unless RECEIPT_KEY is set, which lets the PIN key rotate apart.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ID_PATTERN } from '@e-wallet/contract';
import type { Config } from '../../config.ts';

export type Side = 'debit' | 'credit';

const TAG_BYTES = 16;
const CODE_BYTES = 16 + 1 + TAG_BYTES;
const SIDES: Side[] = ['debit', 'credit'];

function tag(config: Pick<Config, 'PIN_KEY' | 'RECEIPT_KEY'>, body: Buffer): Buffer {
  const key = config.RECEIPT_KEY ?? `receipt:${config.PIN_KEY}`;
  return createHmac('sha256', key).update('receipt:v1:').update(body).digest().subarray(0, TAG_BYTES);
}

export function receiptCode(
  config: Pick<Config, 'PIN_KEY' | 'RECEIPT_KEY'>,
  transferId: string,
  side: Side,
): string {
  const body = Buffer.concat([
    Buffer.from(transferId.replace(/-/g, ''), 'hex'),
    Buffer.of(SIDES.indexOf(side)),
  ]);
  return Buffer.concat([body, tag(config, body)]).toString('base64url');
}

/** The transfer and side a code names, or null for anything not signed by this server's key. */
export function readReceiptCode(
  config: Pick<Config, 'PIN_KEY' | 'RECEIPT_KEY'>,
  code: string,
): { transferId: string; side: Side } | null {
  if (!/^[A-Za-z0-9_-]{44}$/.test(code)) return null;
  const bytes = Buffer.from(code, 'base64url');
  if (bytes.length !== CODE_BYTES) return null;
  const body = bytes.subarray(0, 17);
  if (!timingSafeEqual(bytes.subarray(17), tag(config, body))) return null;
  const side = SIDES[body[16]!];
  const hex = body.subarray(0, 16).toString('hex');
  const transferId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return side && ID_PATTERN.test(transferId) ? { transferId, side } : null;
}
