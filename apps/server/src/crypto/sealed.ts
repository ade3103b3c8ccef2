/**
 * Encryption at rest: AES-256-GCM with a key derived by HKDF-SHA-256 (identity documents under
 * DOCUMENTS_KEY, a held payout's card or account under PAYOUTS_KEY,
 * docs/decisions/antifraud.md#antifraud-and-the-trusted-person), a random 96-bit nonce per value, and the
 * row's id as associated data so a sealed value moved to another row does not open. Layout: version (1 byte)
 * | nonce (12) | tag (16) | data.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;

export function documentsKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'e-wallet', 'documents/v1', 32));
}

/**
 * The key of a held payout's destination, sealed until its hold ends
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
 */
export function payoutsKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'e-wallet', 'payout-destinations/v1', 32));
}

/** The key of merchants' notification secrets (docs/decisions/merchants.md#merchants). */
export function merchantsKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'e-wallet', 'merchant-webhook-secrets/v1', 32));
}

export function seal(key: Buffer, plain: Buffer, context: string): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), data]);
}

/** The plain value; throws when the key, the context or the bytes are not the ones sealed. */
export function open(key: Buffer, sealed: Buffer, context: string): Buffer {
  if (sealed.length < 29 || sealed[0] !== VERSION) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.subarray(13, 29));
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
}
