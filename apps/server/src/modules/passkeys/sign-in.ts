/**
 * Signing in with a discoverable passkey, no SMS (docs/decisions/account.md#a-persons-account): the passkey
 * names its owner, a session is made as a sign-in by code makes one, and a new device is told the same way.
 */
import type { AnswerOf, BodyOut } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError, isAppError } from '../../errors.ts';
import { createSession } from '../../sessions/tokens.ts';
import { type ClientMeta, message, sendNotice } from '../auth/index.ts';
import { addressKey, hit, peek } from '../limits/index.ts';
import { deviceName, notifyNewDevice } from '../notifications/index.ts';
import { loginOptions, passkeyOwner } from './service.ts';

/** Failed passkey sign-ins one address may make in an hour before it waits, as wrong codes do. */
export const PASSKEY_FAILURES_PER_ADDRESS = 5;
const PASSKEY_FAILURE_WINDOW_SECONDS = 3600;
/** Sign-in challenges one address may ask for in a minute (each is a row until it expires). */
const PASSKEY_OPTIONS_PER_ADDRESS_PER_MINUTE = 30;
const passkeyFailuresKey = (ip: string) => `passkey-login-fail:address:${addressKey(ip)}`;

export async function passkeyLoginOptions(
  ctx: AppContext,
  client: ClientMeta,
): Promise<AnswerOf<'passkeyLoginOptions'>> {
  const asked = await hit(
    ctx.db,
    `passkey-login-options:address:${addressKey(client.ip)}`,
    60,
    PASSKEY_OPTIONS_PER_ADDRESS_PER_MINUTE,
    ctx.clock.now(),
  );
  if (!asked.allowed) throw new AppError('RATE_LIMITED');
  return loginOptions(ctx);
}

/**
 * Signs a person in with a discoverable passkey, no SMS (docs/decisions/account.md#a-persons-account).
 * Failures count per client address; after five in an hour the address waits (PASSKEY_LOGIN_LOCKED). A new
 * device gets the same notice and SMS as a sign-in by code.
 */
export async function loginWithPasskey(
  ctx: AppContext,
  body: BodyOut<'passkeyLogin'>,
  client: ClientMeta,
): Promise<AnswerOf<'passkeyLogin'>> {
  const key = passkeyFailuresKey(client.ip);
  const seen = await peek(ctx.db, key, PASSKEY_FAILURE_WINDOW_SECONDS, ctx.clock.now());
  if (seen.count >= PASSKEY_FAILURES_PER_ADDRESS)
    throw new AppError('PASSKEY_LOGIN_LOCKED', { minutes: Math.ceil(seen.oldestLeavesInSeconds / 60) });
  let userId: string;
  try {
    userId = await passkeyOwner(ctx, body);
  } catch (error) {
    if (isAppError(error) && error.code === 'PASSKEY_INVALID')
      await hit(ctx.db, key, PASSKEY_FAILURE_WINDOW_SECONDS, PASSKEY_FAILURES_PER_ADDRESS, ctx.clock.now());
    throw error;
  }
  const { phone, newDevice, token } = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ phone: string }>('SELECT phone FROM users WHERE id = $1 FOR UPDATE', [
      userId,
    ]);
    const phone = rows[0]!.phone;
    const newDevice = await notifyNewDevice(q, userId, { userAgent: client.userAgent, at: ctx.clock.now() });
    const session = await createSession(q, userId, {
      userAgent: client.userAgent,
      ip: client.ip,
      now: ctx.clock.now(),
      language: client.language,
    });
    return { phone, newDevice, token: session.token };
  });
  if (newDevice)
    await sendNotice(
      ctx,
      phone,
      message('smsNewDevice', client.language, { device: deviceName(client.userAgent) }),
    );
  return { status: 'success', message: message('signedIn', client.language), auth_token: token };
}
