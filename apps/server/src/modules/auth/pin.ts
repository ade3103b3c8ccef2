/**
 * The PIN (docs/decisions/security-rules.md#security-baselines). Ten thousand values cannot be protected by a
 * slow hash, so it is stored as HMAC-SHA-256(PIN_KEY, salt || pin) with a per-user random salt and the key's
 * version, and guarded online: 5 wrong PINs in a row lock money operations for 15 minutes, 10
 * revoke every session. The guard's state lives on the user's row; every check holds that row's
 * lock, so concurrent requests on any number of instances are counted exactly.
 *
 * Two owners, one each: whether a proof proves the PIN inside a money call is the door's to decide
 * (pin_proven, db/functions/pin.sql); counting a wrong PIN and locking is this file's, always under
 * the user's row lock (`guardedRow`). The instance keeps a hint of the signer (db/hints.ts): who they
 * are and their PIN's salt and key version, never the hash. With it a money call sends the PIN's HMAC
 * without a read (`pinProof`); whenever the door does not find the PIN proven, `freshPinProof` forgets
 * the hint, and the PIN is checked and counted.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { batchedRead } from '../../db/batch.ts';
import { hintsPerDatabase } from '../../db/hints.ts';
import { AppError } from '../../errors.ts';
import { revokeAllSessions } from '../../sessions/tokens.ts';
import { notify } from '../notifications/index.ts';
import { message } from './messages.ts';
import { sendNotice } from './service.ts';

export const PIN_LOCK_AFTER = 5;
export const PIN_LOCK_MINUTES = 15;
export const PIN_REVOKE_AFTER = 10;
const SALT_BYTES = 16;

/**
 * The PIN key of a version. Only the current key is configured today; rotating means adding the
 * old key under its version here and re-hashing on the next correct PIN.
 */
function pinKey(config: Config, version: number): string {
  if (version !== config.PIN_KEY_VERSION) throw new Error(`PIN key version ${version} is not configured`);
  return config.PIN_KEY;
}

export function pinHash(key: string, salt: Buffer, pin: string): Buffer {
  return createHmac('sha256', key)
    .update(Buffer.concat([salt, Buffer.from(pin, 'utf8')]))
    .digest();
}

function newPinColumns(config: Config, pin: string): [Buffer, Buffer, number] {
  const salt = randomBytes(SALT_BYTES);
  return [pinHash(pinKey(config, config.PIN_KEY_VERSION), salt, pin), salt, config.PIN_KEY_VERSION];
}

/** Sets the PIN of a user who has none yet (right after registration); PIN_ALREADY_SET otherwise. */
export async function setPin(ctx: AppContext, userId: string, pin: string): Promise<void> {
  const [hash, salt, version] = newPinColumns(ctx.config, pin);
  const { rowCount } = await ctx.db.query(
    `UPDATE users SET pin_hash = $2, pin_salt = $3, pin_key_version = $4, pin_failures = 0, pin_locked_until = NULL
     WHERE id = $1 AND pin_hash IS NULL`,
    [userId, hash, salt, version],
  );
  if (rowCount === 0) throw new AppError('PIN_ALREADY_SET');
}

/** The user who has just confirmed with their PIN, as their row read then: what a payment names. */
export interface PinSigner {
  id: string;
  firstName: string;
  lastName: string;
}

type PinOutcome =
  | { kind: 'ok'; row: PinRow }
  | { kind: 'not_set' }
  /** `phone`: the PIN was locked just now, and its owner is told by SMS at this number. */
  | { kind: 'locked'; minutes: number; phone?: string }
  | { kind: 'wrong'; left: number }
  | { kind: 'revoked'; phone?: string };

interface PinRow {
  id: string;
  pin_hash: Buffer | null;
  pin_salt: Buffer | null;
  pin_key_version: number | null;
  pin_failures: number;
  pin_locked_until: Date | null;
  /** No wrong PIN counted and no lock remembered, as pin_clean (db/functions/pin.sql) reads it. */
  pin_clean: boolean;
  first_name: string;
  last_name: string;
}

// The signer's name comes with the PIN: a payment needs it next, and one read serves both.
const PIN_COLUMNS =
  'id, pin_hash, pin_salt, pin_key_version, pin_failures, pin_locked_until, pin_clean(users), first_name, last_name';

function signerOf(row: PinRow): PinSigner {
  return { id: row.id, firstName: row.first_name, lastName: row.last_name };
}

/** PIN rows of many users in one query (batched across concurrent requests). */
const pinRows = batchedRead<string, PinRow>(async (q, userIds) => {
  const { rows } = await q.query<PinRow>(`SELECT ${PIN_COLUMNS} FROM users WHERE id = ANY($1::uuid[])`, [
    userIds,
  ]);
  return new Map(rows.map((row) => [row.id, row]));
});

/** What an instance remembers of a signer after a right PIN: never the hash. */
interface SignerHint {
  signer: PinSigner;
  salt: Buffer;
  keyVersion: number;
}

const signerHints = hintsPerDatabase<SignerHint>({ max: 100_000, ttlMs: 10 * 60_000 });

function remember(ctx: AppContext, row: PinRow): PinSigner {
  const signer = signerOf(row);
  if (row.pin_salt && row.pin_key_version !== null)
    signerHints(ctx.db).set(row.id, {
      signer,
      salt: Buffer.from(row.pin_salt),
      keyVersion: row.pin_key_version,
    });
  return signer;
}

/** A signer and the HMAC of the PIN they gave, for a statement that compares it with the stored hash. */
export interface PinProof {
  signer: PinSigner;
  hash: Buffer;
}

/**
 * The proof of a PIN for a door that compares it with the stored hash itself (pin_proven in
 * db/functions/pin.sql decides it): the HMAC made with the signer's salt, from this instance's hint
 * or one plain read, never judged here. When the door does not accept it, `freshPinProof` checks and
 * counts the PIN under its lock.
 */
export async function pinProof(ctx: AppContext, userId: string, pin: string): Promise<PinProof> {
  const hinted = rememberedPinProof(ctx, userId, pin);
  if (hinted) return hinted;
  const row = await pinRows(ctx.db, userId);
  if (!row?.pin_salt || row.pin_key_version === null || !row.pin_hash) return provePin(ctx, userId, pin);
  remember(ctx, row);
  return rememberedPinProof(ctx, userId, pin) ?? provePin(ctx, userId, pin);
}

/**
 * After a door found a proof wrong: the hint is forgotten and the PIN checked and counted here,
 * so a wrong PIN throws its error, and a stale hint gives way to a fresh proof.
 */
export async function freshPinProof(ctx: AppContext, userId: string, pin: string): Promise<PinProof> {
  forgetSigner(ctx, userId);
  return provePin(ctx, userId, pin);
}

/** The proof of a PIN from this instance's hint of the signer, without a round trip. Proves nothing by itself. */
function rememberedPinProof(ctx: AppContext, userId: string, pin: string): PinProof | undefined {
  const hint = signerHints(ctx.db).get(userId);
  if (!hint || hint.keyVersion !== ctx.config.PIN_KEY_VERSION) return undefined;
  return { signer: hint.signer, hash: pinHash(pinKey(ctx.config, hint.keyVersion), hint.salt, pin) };
}

/** `checkPin`, answering the proof as well (the stored hash it matched), for a door that checks it again. */
export async function provePin(ctx: AppContext, userId: string, pin: string): Promise<PinProof> {
  const row = await guardedRow(ctx, userId, pin);
  return { signer: remember(ctx, row), hash: Buffer.from(row.pin_hash!) };
}

/** Drops the hint of a signer: a door refused what it said, or the PIN changed. */
export function forgetSigner(ctx: AppContext, userId: string): void {
  signerHints(ctx.db).delete(userId);
}

function pinMatches(config: Config, user: PinRow, pin: string): boolean {
  if (!user.pin_hash || !user.pin_salt || user.pin_key_version === null) return false;
  const stored = Buffer.from(user.pin_hash);
  const given = pinHash(pinKey(config, user.pin_key_version), Buffer.from(user.pin_salt), pin);
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/**
 * Checks the PIN of a user for an unlock or a change, under the guard. Throws PIN_NOT_SET,
 * PIN_LOCKED {minutes}, PIN_INVALID {left}, or INVALID_TOKEN when the 10th wrong PIN in a row has
 * just revoked every session of the user. A correct PIN resets the count and answers who signed.
 */
export async function checkPin(ctx: AppContext, userId: string, pin: string): Promise<PinSigner> {
  return remember(ctx, await guardedRow(ctx, userId, pin));
}

/**
 * The PIN's guard, under the user's row lock: `pin` checked and counted, or, with null, the person
 * confirmed otherwise (a passkey), which passes as a right PIN would. A lock stops both.
 */
async function guardedRow(ctx: AppContext, userId: string, pin: string | null): Promise<PinRow> {
  const now = ctx.clock.now();
  const outcome = await ctx.db.tx(async (q): Promise<PinOutcome> => {
    const { rows } = await q.query<PinRow>(`SELECT ${PIN_COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [
      userId,
    ]);
    const user = rows[0];
    if (!user?.pin_hash || !user.pin_salt || user.pin_key_version === null) return { kind: 'not_set' };
    const lockedMs = (user.pin_locked_until?.getTime() ?? 0) - now.getTime();
    if (lockedMs > 0) return { kind: 'locked', minutes: Math.ceil(lockedMs / 60_000) };

    if (pin === null || pinMatches(ctx.config, user, pin)) {
      if (!user.pin_clean)
        await q.query('UPDATE users SET pin_failures = 0, pin_locked_until = NULL WHERE id = $1', [userId]);
      return { kind: 'ok', row: user };
    }

    // Counted in a row, never reset by time: every 5th wrong PIN locks, every 10th also signs out.
    const failures = user.pin_failures + 1;
    const lock = failures % PIN_LOCK_AFTER === 0;
    await q.query('UPDATE users SET pin_failures = $2, pin_locked_until = $3 WHERE id = $1', [
      userId,
      failures,
      lock ? new Date(now.getTime() + PIN_LOCK_MINUTES * 60_000) : user.pin_locked_until,
    ]);
    let phone: string | undefined;
    if (lock) {
      // A lock is a security event: a notification (and its push) now, one SMS after the commit.
      await notify(q, userId, 'security', 'pin_locked', { minutes: String(PIN_LOCK_MINUTES) }, now);
      const { rows: owner } = await q.query<{ phone: string }>('SELECT phone FROM users WHERE id = $1', [
        userId,
      ]);
      phone = owner[0]?.phone;
    }
    if (failures % PIN_REVOKE_AFTER === 0) {
      await revokeAllSessions(q, userId, now);
      return { kind: 'revoked', phone };
    }
    if (lock) return { kind: 'locked', minutes: PIN_LOCK_MINUTES, phone };
    return { kind: 'wrong', left: PIN_LOCK_AFTER - (failures % PIN_LOCK_AFTER) };
  });
  // Thrown only after the transaction has committed the count.
  if ((outcome.kind === 'locked' || outcome.kind === 'revoked') && outcome.phone)
    await sendNotice(
      ctx,
      outcome.phone,
      message('smsPinLocked', 'ru', { minutes: String(PIN_LOCK_MINUTES) }),
    );
  switch (outcome.kind) {
    case 'ok':
      return outcome.row;
    case 'not_set':
      throw new AppError('PIN_NOT_SET');
    case 'locked':
      throw new AppError('PIN_LOCKED', { minutes: outcome.minutes });
    case 'wrong':
      throw new AppError('PIN_INVALID', { left: outcome.left });
    case 'revoked':
      throw new AppError('INVALID_TOKEN', {}, 'sessions revoked after wrong PINs');
  }
}

/**
 * The proof for a person who has confirmed with one of their passkeys instead of the PIN
 * (modules/money-calls/confirmation.ts): the stored hash itself. A PIN lock still stops money operations;
 * wrong PINs counted before are cleared, as a right PIN clears them.
 */
export async function passkeyPinProof(ctx: AppContext, userId: string): Promise<PinProof> {
  const row = await guardedRow(ctx, userId, null);
  return { signer: signerOf(row), hash: Buffer.from(row.pin_hash!) };
}

/** Changes the PIN after checking the old one (which counts toward the lock like any check). */
export async function changePin(
  ctx: AppContext,
  userId: string,
  oldPin: string,
  newPin: string,
): Promise<void> {
  if (oldPin === newPin) throw new AppError('PIN_SAME');
  await checkPin(ctx, userId, oldPin);
  const [hash, salt, version] = newPinColumns(ctx.config, newPin);
  forgetSigner(ctx, userId);
  await ctx.db.query('UPDATE users SET pin_hash = $2, pin_salt = $3, pin_key_version = $4 WHERE id = $1', [
    userId,
    hash,
    salt,
    version,
  ]);
}
