/**
 * The merchant API's secret keys (docs/decisions/merchants.md#merchants): made by the merchant, answered
 * once, kept only as an HMAC; the API authenticates with HTTP Basic, the merchant's id and a key.
 *
 *   createKey(ctx, userId, name)     POST   /v2/wallet/merchant/keys
 *   listKeys(ctx, userId)            GET    /v2/wallet/merchant/keys
 *   revokeKey(ctx, userId, id)       DELETE /v2/wallet/merchant/keys/:id
 *   authenticateMerchant(ctx, req)   every /merchant/v1 call
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { type AnswerOf, ID_PATTERN } from '@e-wallet/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { type MerchantRow, merchantById, merchantOfUser } from './profile.ts';

/** How many keys a merchant may keep at once. */
export const KEYS_MAX = 10;

function keyHash(ctx: AppContext, secret: string): Buffer {
  return createHmac('sha256', `merchant-keys:${ctx.config.PIN_KEY}`).update(secret).digest();
}

async function ownMerchantOrThrow(ctx: AppContext, userId: string): Promise<MerchantRow> {
  const merchant = await merchantOfUser(ctx.db, userId);
  if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
  return merchant;
}

interface KeyRow {
  id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}
const keyView = (row: KeyRow) => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

export async function createKey(
  ctx: AppContext,
  userId: string,
  name: string,
): Promise<AnswerOf<'merchantKeyCreate'>> {
  const merchant = await ownMerchantOrThrow(ctx, userId);
  const secret = `sk_${randomBytes(32).toString('base64url')}`;
  const row = await ctx.db.tx(async (q) => {
    await q.query('SELECT id FROM merchants WHERE id = $1 FOR UPDATE', [merchant.id]);
    const { rows } = await q.query<{ n: string }>(
      'SELECT count(*) AS n FROM merchant_keys WHERE merchant_id = $1 AND revoked_at IS NULL',
      [merchant.id],
    );
    if (Number(rows[0]!.n) >= KEYS_MAX) throw new AppError('MERCHANT_KEY_LIMIT', { limit: KEYS_MAX });
    const { rows: made } = await q.query<KeyRow>(
      `INSERT INTO merchant_keys (id, merchant_id, name, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, name, created_at, last_used_at`,
      [randomUUID(), merchant.id, name, keyHash(ctx, secret), ctx.clock.now()],
    );
    return made[0]!;
  });
  return { status: 'success', key: { ...keyView(row), secret } };
}

export async function listKeys(ctx: AppContext, userId: string): Promise<AnswerOf<'merchantKeys'>> {
  const merchant = await ownMerchantOrThrow(ctx, userId);
  const { rows } = await ctx.db.query<KeyRow>(
    `SELECT id, name, created_at, last_used_at FROM merchant_keys
     WHERE merchant_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id`,
    [merchant.id],
  );
  return { results: rows.map(keyView) };
}

export async function revokeKey(
  ctx: AppContext,
  userId: string,
  id: string,
): Promise<AnswerOf<'merchantKeyRevoke'>> {
  const merchant = await ownMerchantOrThrow(ctx, userId);
  const { rowCount } = await ctx.db.query(
    'UPDATE merchant_keys SET revoked_at = $3 WHERE id = $1 AND merchant_id = $2 AND revoked_at IS NULL',
    [id, merchant.id, ctx.clock.now()],
  );
  if (!rowCount) throw new AppError('NOT_FOUND');
  return { status: 'success' };
}

const signedIn = new WeakMap<FastifyRequest, MerchantRow>();

/** The merchant of a /merchant/v1 call, as `authenticateMerchant` found it. */
export function merchantOf(request: FastifyRequest): MerchantRow {
  const merchant = signedIn.get(request);
  if (!merchant) throw new AppError('MERCHANT_AUTH_INVALID');
  return merchant;
}

/**
 * HTTP Basic: the merchant's id and one of its keys in use. A wrong pair is MERCHANT_AUTH_INVALID (401)
 * whichever half is wrong; a merchant not (or no longer) approved is MERCHANT_NOT_ACTIVE.
 */
export async function authenticateMerchant(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization;
  const encoded =
    typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1] : undefined;
  const pair = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = pair.indexOf(':');
  const id = pair.slice(0, colon);
  const secret = pair.slice(colon + 1);
  if (colon < 0 || !ID_PATTERN.test(id) || !/^sk_[A-Za-z0-9_-]{43}$/.test(secret))
    throw new AppError('MERCHANT_AUTH_INVALID');
  const { rows } = await ctx.db.query<{ id: string }>(
    `UPDATE merchant_keys SET last_used_at = $3
     WHERE secret_hash = $1 AND merchant_id = $2 AND revoked_at IS NULL RETURNING id`,
    [keyHash(ctx, secret), id, ctx.clock.now()],
  );
  if (!rows[0]) throw new AppError('MERCHANT_AUTH_INVALID');
  const merchant = await merchantById(ctx.db, id);
  if (!merchant) throw new AppError('MERCHANT_AUTH_INVALID');
  if (merchant.status !== 'active') throw new AppError('MERCHANT_NOT_ACTIVE');
  signedIn.set(request, merchant);
}
