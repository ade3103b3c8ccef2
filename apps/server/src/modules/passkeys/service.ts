/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a signed-in person adds passkeys in Settings
 * and may then confirm themselves with one instead of the PIN where the app asks for it to go on
 * (the inactivity lock). The relying party is the server's PUBLIC_URL: its host is the RP ID, its
 * origin the only origin accepted. A person may also sign in with a discoverable passkey, no SMS
 * (`loginOptions`, `passkeyOwner`; the session is opened by modules/auth). Each ceremony's challenge is stored, used once, and lives 5
 * minutes; only public keys are kept; user verification (the device's own PIN or biometrics) is required.
 */
import type { AnswerOf, BodyOut, Language } from '@e-wallet/contract';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AppContext } from '../../context.ts';
import { PG, pgCode, type Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { type OwnerProof, type ProofKind, proveOwner, securityChanged } from '../auth/index.ts';
import { deviceName } from '../notifications/index.ts';

export const CHALLENGE_TTL_MS = 5 * 60_000;
export const PASSKEYS_PER_USER = 10;

const MESSAGES = {
  added: { ru: 'Ключ доступа добавлен', en: 'The passkey is added' },
  removed: { ru: 'Ключ доступа удалён', en: 'The passkey is removed' },
  confirmed: { ru: 'Ключ доступа подтверждён', en: 'The passkey is confirmed' },
  kept: { ru: 'Ключ доступа снова работает', en: 'The passkey works again' },
} as const;

function relyingParty(ctx: AppContext): { rpID: string; origin: string; rpName: string } {
  const url = new URL(ctx.config.PUBLIC_URL);
  return {
    rpID: url.hostname,
    origin: url.origin,
    rpName: ctx.config.BRAND === 'grok' ? 'Grok Wallet' : 'E-Wallet',
  };
}

type ChallengePurpose = 'register' | 'confirm' | 'login';

/** A sign-in's challenge belongs to nobody yet (userId null): the passkey names the person. */
async function storeChallenge(
  ctx: AppContext,
  userId: string | null,
  purpose: ChallengePurpose,
  challenge: string,
  proof: ProofKind | null = null,
): Promise<string> {
  const now = ctx.clock.now();
  // Spent challenges go with every new one: the table holds only live ones.
  await ctx.db.query('DELETE FROM webauthn_challenges WHERE expires_at <= $1', [now]);
  const { rows } = await ctx.db.query<{ id: string }>(
    `INSERT INTO webauthn_challenges (user_id, purpose, challenge, expires_at, proof) VALUES ($1, $2, $3, $4, $5)
     RETURNING id`,
    [userId, purpose, challenge, new Date(now.getTime() + CHALLENGE_TTL_MS), proof],
  );
  return rows[0]!.id;
}

/** The challenge of one ceremony of this user, used up; PASSKEY_INVALID when there is none alive. */
async function takeChallenge(
  ctx: AppContext,
  userId: string | null,
  purpose: ChallengePurpose,
  id: string,
): Promise<{ challenge: string; proof: ProofKind | null }> {
  const { rows } = await ctx.db.query<{ challenge: string; proof: ProofKind | null }>(
    `DELETE FROM webauthn_challenges
     WHERE id = $1 AND user_id IS NOT DISTINCT FROM $2::uuid AND purpose = $3 AND expires_at > $4
     RETURNING challenge, proof`,
    [id, userId, purpose, ctx.clock.now()],
  );
  if (!rows[0]) throw new AppError('PASSKEY_INVALID');
  return rows[0];
}

interface PasskeyRow {
  id: string;
  credential_id: string;
  public_key: Buffer;
  counter: string | bigint;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  suspended_at: Date | null;
  user_agent: string;
}

/** A person's passkeys; `usable` leaves out those a freeze suspended, which neither sign in nor confirm. */
async function passkeysOf(ctx: AppContext, userId: string, usable = false): Promise<PasskeyRow[]> {
  const { rows } = await ctx.db.query<PasskeyRow>(
    `SELECT id, credential_id, public_key, counter, transports, name, created_at, last_used_at, suspended_at,
       user_agent
     FROM passkeys WHERE user_id = $1 ${usable ? 'AND suspended_at IS NULL' : ''} ORDER BY created_at, id`,
    [userId],
  );
  return rows;
}

/**
 * Recovery removes what a thief added (docs/decisions/recovery-and-four-eyes.md): a freeze suspends every
 * passkey of the person (modules/freeze); the owner then keeps theirs (`keepPasskey`) or removes any.
 */
export async function suspendPasskeys(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query('UPDATE passkeys SET suspended_at = $2 WHERE user_id = $1 AND suspended_at IS NULL', [
    userId,
    at,
  ]);
}

/** A suspended passkey back in use, after the PIN or a fresh code, told as a passkey added. */
export async function keepPasskey(
  ctx: AppContext,
  userId: string,
  id: string,
  proof: OwnerProof,
  language: Language,
): Promise<AnswerOf<'passkeyKeep'>> {
  const { rows } = await ctx.db.query<{ suspended: boolean }>(
    'SELECT suspended_at IS NOT NULL AS suspended FROM passkeys WHERE id = $1 AND user_id = $2',
    [id, userId],
  );
  if (!rows[0]) throw new AppError('PASSKEY_NOT_FOUND');
  if (!rows[0].suspended) return { status: 'success', message: MESSAGES.kept[language] };
  const proved = await proveOwner(ctx, userId, proof, language);
  await ctx.db.query('UPDATE passkeys SET suspended_at = NULL WHERE id = $1 AND user_id = $2', [id, userId]);
  await securityChanged(ctx, userId, 'passkey_added', proved, language);
  return { status: 'success', message: MESSAGES.kept[language] };
}

/**
 * A passkey the person did not name is stored with an empty name and read with the default name in
 * the reader's language; keys stored earlier with a default name of either language read the same.
 */
const DEFAULT_NAME: Record<Language, string> = { ru: 'Ключ доступа', en: 'Passkey' };

function nameOf(stored: string, language: Language): string {
  return stored === '' || stored === DEFAULT_NAME.ru || stored === DEFAULT_NAME.en
    ? DEFAULT_NAME[language]
    : stored;
}

export async function listPasskeys(
  ctx: AppContext,
  userId: string,
  language: Language,
): Promise<AnswerOf<'passkeys'>> {
  const rows = await passkeysOf(ctx, userId);
  return {
    results: rows.map((row) => ({
      id: row.id,
      name: nameOf(row.name, language),
      created_at: row.created_at.toISOString(),
      last_used_at: row.last_used_at?.toISOString() ?? null,
      suspended_at: row.suspended_at?.toISOString() ?? null,
      device: row.user_agent ? deviceName(row.user_agent) : null,
    })),
    next: null,
  };
}

/**
 * A new passkey's options, only after the PIN or a fresh SMS code (step-up.ts): a stolen session
 * alone cannot add a way to confirm money. The challenge is then the only way to register.
 */
export async function registerOptions(
  ctx: AppContext,
  userId: string,
  proof: OwnerProof,
  language: Language,
): Promise<AnswerOf<'passkeyRegisterOptions'>> {
  const proved = await proveOwner(ctx, userId, proof, language);
  const { rows } = await ctx.db.query<{ phone: string; first_name: string; last_name: string }>(
    'SELECT phone, first_name, last_name FROM users WHERE id = $1',
    [userId],
  );
  const user = rows[0];
  if (!user) throw new AppError('INVALID_TOKEN');
  const existing = await passkeysOf(ctx, userId);
  if (existing.length >= PASSKEYS_PER_USER) throw new AppError('PASSKEY_INVALID');
  const { rpID, rpName } = relyingParty(ctx);
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.phone,
    userDisplayName: `${user.first_name} ${user.last_name}`.trim(),
    userID: Buffer.from(userId.replaceAll('-', ''), 'hex'),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: row.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
  const challengeId = await storeChallenge(ctx, userId, 'register', options.challenge, proved);
  return {
    status: 'success',
    challenge_id: challengeId,
    options: options as unknown as Record<string, unknown>,
  };
}

export async function registerPasskey(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'passkeyRegister'>,
  language: Language,
  userAgent = '',
): Promise<AnswerOf<'passkeyRegister'>> {
  const { challenge: expectedChallenge, proof } = await takeChallenge(
    ctx,
    userId,
    'register',
    body.challenge_id,
  );
  // Only a challenge given after the PIN or a code registers (one stored before this rule: refused).
  if (!proof) throw new AppError('PASSKEY_INVALID');
  const { rpID, origin } = relyingParty(ctx);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: body.response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('PASSKEY_INVALID');
  }
  if (!verified.verified) throw new AppError('PASSKEY_INVALID');
  const { credential } = verified.registrationInfo;
  try {
    await ctx.db.query(
      `INSERT INTO passkeys (user_id, credential_id, public_key, counter, transports, name, created_at, user_agent)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        userId,
        credential.id,
        Buffer.from(credential.publicKey),
        credential.counter,
        credential.transports ?? [],
        body.name?.trim() ?? '',
        ctx.clock.now(),
        userAgent.slice(0, 500),
      ],
    );
  } catch (error) {
    if (pgCode(error) === PG.uniqueViolation) throw new AppError('PASSKEY_INVALID');
    throw error;
  }
  await securityChanged(ctx, userId, 'passkey_added', proof, language);
  return { status: 'success', message: MESSAGES.added[language] };
}

export async function deletePasskey(ctx: AppContext, userId: string, id: string, language: Language) {
  const { rowCount } = await ctx.db.query('DELETE FROM passkeys WHERE id = $1 AND user_id = $2', [
    id,
    userId,
  ]);
  if (rowCount === 0) throw new AppError('PASSKEY_NOT_FOUND');
  await securityChanged(ctx, userId, 'passkey_removed', 'session', language);
  return { status: 'success' as const, message: MESSAGES.removed[language] };
}

export async function confirmOptions(
  ctx: AppContext,
  userId: string,
): Promise<AnswerOf<'passkeyConfirmOptions'>> {
  const existing = await passkeysOf(ctx, userId, true);
  if (existing.length === 0) throw new AppError('PASSKEY_NOT_FOUND');
  return authenticationOptions(
    ctx,
    userId,
    'confirm',
    existing.map((row) => ({ id: row.credential_id, transports: row.transports })),
  );
}

/** Options to answer with a passkey, and their stored challenge; no credentials named: any discoverable one. */
async function authenticationOptions(
  ctx: AppContext,
  userId: string | null,
  purpose: 'confirm' | 'login',
  allowCredentials?: { id: string; transports: string[] }[],
): Promise<AnswerOf<'passkeyConfirmOptions'>> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    ...(allowCredentials ? { allowCredentials: allowCredentials as never } : {}),
    userVerification: 'required',
  });
  const challengeId = await storeChallenge(ctx, userId, purpose, options.challenge);
  return {
    status: 'success',
    challenge_id: challengeId,
    options: options as unknown as Record<string, unknown>,
  };
}

/** Confirms the signed-in person with one of their own passkeys (another person's is refused alike). */
export async function confirmPasskey(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'passkeyConfirm'>,
  language: Language,
): Promise<AnswerOf<'passkeyConfirm'>> {
  await verifyPasskey(ctx, userId, body);
  return { status: 'success', message: MESSAGES.confirmed[language] };
}

/**
 * Checks a passkey's answer to this person's confirm challenge, using the challenge up: the
 * inactivity lock's confirmation and a money operation's (modules/money-calls/confirmation.ts).
 * PASSKEY_INVALID for anything but the person's own passkey answering a live challenge.
 */
export async function verifyPasskey(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'passkeyConfirm'>,
): Promise<void> {
  const { challenge: expectedChallenge } = await takeChallenge(ctx, userId, 'confirm', body.challenge_id);
  const row = (await passkeysOf(ctx, userId, true)).find((key) => key.credential_id === body.response.id);
  if (!row) throw new AppError('PASSKEY_INVALID');
  await checkAssertion(ctx, row, body, expectedChallenge);
}

/** Options for signing in with a discoverable passkey: no user named, the device offers its own. */
export function loginOptions(ctx: AppContext): Promise<AnswerOf<'passkeyLoginOptions'>> {
  return authenticationOptions(ctx, null, 'login');
}

/**
 * The person a sign-in passkey belongs to, once its answer to a live sign-in challenge is verified
 * (the challenge used up); PASSKEY_INVALID for anything else. The caller opens the session.
 */
export async function passkeyOwner(ctx: AppContext, body: BodyOut<'passkeyLogin'>): Promise<string> {
  const { challenge: expectedChallenge } = await takeChallenge(ctx, null, 'login', body.challenge_id);
  const { rows } = await ctx.db.query<PasskeyRow & { user_id: string }>(
    `SELECT id, user_id, credential_id, public_key, counter, transports, name, created_at, last_used_at,
       suspended_at, user_agent
     FROM passkeys WHERE credential_id = $1 AND suspended_at IS NULL`,
    [body.response.id],
  );
  const row = rows[0];
  if (!row) throw new AppError('PASSKEY_INVALID');
  await checkAssertion(ctx, row, body, expectedChallenge);
  return row.user_id;
}

/** Verifies a passkey's signature over the challenge and moves its counter on. */
async function checkAssertion(
  ctx: AppContext,
  row: PasskeyRow,
  body: BodyOut<'passkeyConfirm'>,
  expectedChallenge: string,
): Promise<void> {
  const { rpID, origin } = relyingParty(ctx);
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response: body.response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(row.public_key),
        counter: Number(row.counter),
        transports: row.transports as never,
      },
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('PASSKEY_INVALID');
  }
  if (!verified.verified) throw new AppError('PASSKEY_INVALID');
  await ctx.db.query('UPDATE passkeys SET counter = $2, last_used_at = $3 WHERE id = $1', [
    row.id,
    verified.authenticationInfo.newCounter,
    ctx.clock.now(),
  ]);
}
