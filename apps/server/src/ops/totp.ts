/**
 * Operators' TOTP (RFC 6238, 6 digits, 30 s). The secret is sealed under a key derived from OPS_KEY,
 * since a code is checked against it; a used time step is kept so that no code counts twice.
 */
import { hkdfSync } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { AppContext } from '../context.ts';
import { open, seal } from '../crypto/sealed.ts';

const TOTP_PERIOD = 30;

export { generateSecret, generateURI };

function opsKey(ctx: AppContext): Buffer {
  return Buffer.from(hkdfSync('sha256', ctx.config.OPS_KEY, 'e-wallet', 'operators/v1', 32));
}

/** A secret sealed to what it belongs to (`operator:<email>`, `setup:<link id>`): opened under nothing else. */
export const sealSecret = (ctx: AppContext, secret: string, owner: string): Buffer =>
  seal(opsKey(ctx), Buffer.from(secret), owner);

export const openSecret = (ctx: AppContext, sealed: Buffer, owner: string): string =>
  open(opsKey(ctx), Buffer.from(sealed), owner).toString();

/** Whether the code is the secret's now (one step either side), and its time step; only steps after `after` count. */
export async function checkCode(
  secret: string,
  code: string,
  now: Date,
  after?: number,
): Promise<{ valid: boolean; timeStep: number }> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_PERIOD,
    ...(after === undefined ? {} : { afterTimeStep: after }),
  });
  return { valid: result.valid, timeStep: (result as unknown as { timeStep: number }).timeStep };
}
