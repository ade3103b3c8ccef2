/**
 * Ids and cursors that reveal nothing. A money notification's id and the history's cursors come
 * from ledger entries' sequential ids; written in the clear they would tell anyone how many entries
 * the platform has and let them guess neighbours. Here an entry id is encrypted as one AES-256 block
 * (8 bytes of id, 8 bytes of a fixed tag checked on the way back, so a made-up id is refused but for
 * a 2^-64 chance) and written in the UUID layout the contract expects; cursors are sealed whole with
 * AES-256-GCM, so a forged or edited cursor never reaches a query. The key is derived from PIN_KEY
 * (never in the database), so every instance reads every other instance's ids and cursors.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { ID_PATTERN } from '@e-wallet/contract';
import type { Config } from '../config.ts';

const TAG = Buffer.from('ew-entry', 'latin1');

export class OpaqueIds {
  readonly #blockKey: Buffer;
  readonly #sealKey: Buffer;

  constructor(secret: string | Buffer) {
    this.#blockKey = Buffer.from(hkdfSync('sha256', secret, 'e-wallet', 'opaque-ids/entry/v1', 32));
    this.#sealKey = Buffer.from(hkdfSync('sha256', secret, 'e-wallet', 'opaque-ids/cursor/v1', 32));
  }

  /** An entry's id as an unguessable UUID-shaped string; the same entry always gets the same one. */
  entryUuid(id: string | bigint): string {
    const block = Buffer.alloc(16);
    block.writeBigUInt64BE(BigInt(id), 0);
    TAG.copy(block, 8);
    const cipher = createCipheriv('aes-256-ecb', this.#blockKey, null).setAutoPadding(false);
    const hex = Buffer.concat([cipher.update(block), cipher.final()]).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** The entry id an entryUuid carries (as text, for a bigint parameter), or null for any other id. */
  entryIdOf(uuid: string): string | null {
    if (!ID_PATTERN.test(uuid)) return null;
    const decipher = createDecipheriv('aes-256-ecb', this.#blockKey, null).setAutoPadding(false);
    const block = Buffer.concat([
      decipher.update(Buffer.from(uuid.replaceAll('-', ''), 'hex')),
      decipher.final(),
    ]);
    if (!block.subarray(8).equals(TAG)) return null;
    const id = block.readBigUInt64BE(0);
    return id > 0n && id <= 9_223_372_036_854_775_807n ? id.toString() : null;
  }

  /** A cursor's fields sealed into one URL-safe string. */
  sealCursor(fields: string[]): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#sealKey, nonce);
    const data = Buffer.concat([cipher.update(JSON.stringify(fields), 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), data]).toString('base64url');
  }

  /** The fields of a cursor this server sealed, or null for anything else. */
  openCursor(text: string): string[] | null {
    const bytes = Buffer.from(text, 'base64url');
    if (bytes.length < 29) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#sealKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      const fields: unknown = JSON.parse(plain);
      return Array.isArray(fields) && fields.every((f) => typeof f === 'string')
        ? (fields as string[])
        : null;
    } catch {
      return null;
    }
  }
}

/** The server's ids and cursors, keyed by its PIN_KEY: made once by each route module that needs them. */
export function opaqueIds(config: Config): OpaqueIds {
  return new OpaqueIds(`${config.PIN_KEY}\nopaque-ids`);
}

/** For callers without a configuration (direct calls in tests): a key of this process only. */
export const processIds = new OpaqueIds(randomBytes(32));
