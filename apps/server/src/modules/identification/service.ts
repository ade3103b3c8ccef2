/**
 * Identification upgrades (docs/decisions/identification-and-limits.md#identification-levels): a person asks
 * for the next level, a KYC provider verifies them on its hosted page and reports the outcome by signed
 * webhook or when asked.
 *
 * A verification is pending, then maybe in_review, and ends aborted (with a reason) or complete.
 * Final statuses never change. Provider updates carry a sequence number: an update not newer than
 * the last one applied is ignored, so repeated, late and out-of-order callbacks change nothing.
 * Completing raises users.identification_level once (identification_level_changes has one row per
 * verification at most). Locks are taken in one order everywhere: the user's row, then the
 * verification's row.
 */
import {
  type ActiveIdentification as ActiveIdentificationSchema,
  type AnswerOf,
  type BodyOut,
  fieldLabel,
  type KycWebhook,
  type Language,
  PHOTO_MAX_BYTES,
} from '@e-wallet/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { PG, pgCode, type Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { LEVELS, type LevelName, nextLevel } from '../../policy/levels.ts';
import { checkApplicant } from '../../providers/kyc/documents.ts';
import type { KycProviderStatus, KycState } from '../../providers/kyc/kyc-provider.ts';
import { notify } from '../notifications/index.ts';
import { reencodePhoto } from './photo.ts';

export type ActiveIdentification = z.infer<typeof ActiveIdentificationSchema>;
export type VerificationStatus = ActiveIdentification['status'];

export const FINAL_STATUSES: readonly VerificationStatus[] = ['aborted', 'complete'];
export const isFinal = (status: VerificationStatus) => FINAL_STATUSES.includes(status);

/** A verification left pending this long without news from the provider ends aborted. */
export const PENDING_TTL_MS = 60 * 60 * 1000;
export const REASON_EXPIRED = 'Время на прохождение проверки истекло. Начните проверку заново';
export const REASON_PROVIDER_FAILED = 'Сервис проверки был недоступен. Начните проверку заново';
export const REASON_REJECTED = 'Проверка не пройдена';

export interface VerificationRow {
  id: string;
  user_id: string;
  target_level: LevelName;
  provider: string;
  provider_ref: string | null;
  verification_url: string | null;
  status: VerificationStatus;
  reason: string | null;
  last_sequence: bigint;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, user_id, target_level, provider, provider_ref, verification_url, status, reason,
  last_sequence, created_at, updated_at`;

const rank = (level: LevelName) => LEVELS.indexOf(level);

export function toActiveIdentification(row: VerificationRow): ActiveIdentification {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    target_level: row.target_level,
    created_at: row.created_at.toISOString(),
  };
}

/** The person's latest verification, whatever its status. */
export async function latestVerification(q: Queryable, userId: string): Promise<VerificationRow | null> {
  const { rows } = await q.query<VerificationRow>(
    `SELECT ${COLUMNS} FROM verifications WHERE user_id = $1 ORDER BY seq DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ?? null;
}

/** auth info's `active_identification`: the latest verification {id, status, reason, target_level, created_at}, or null. */
export async function activeIdentification(
  q: Queryable,
  userId: string,
): Promise<ActiveIdentification | null> {
  const row = await latestVerification(q, userId);
  return row ? toActiveIdentification(row) : null;
}

/** Locks the user's row (money checks and level changes serialise on it); answers the level. */
export async function lockUserLevel(q: Queryable, userId: string): Promise<LevelName> {
  const { rows } = await q.query<{ identification_level: LevelName }>(
    'SELECT identification_level FROM users WHERE id = $1 FOR NO KEY UPDATE',
    [userId],
  );
  const row = rows[0];
  if (!row) throw new AppError('INVALID_TOKEN', {}, `user ${userId} does not exist`);
  return row.identification_level;
}

export async function userLevel(q: Queryable, userId: string): Promise<LevelName> {
  const { rows } = await q.query<{ identification_level: LevelName }>(
    'SELECT identification_level FROM users WHERE id = $1',
    [userId],
  );
  const row = rows[0];
  if (!row) throw new AppError('INVALID_TOKEN', {}, `user ${userId} does not exist`);
  return row.identification_level;
}

export interface ProviderUpdate {
  status: KycProviderStatus;
  reason: string | null;
  sequence: number;
}

/**
 * The status a verification moves to on a provider update, or null when the update is ignored:
 * the verification is final, or the update is not newer than the last one applied.
 */
export function nextStatus(
  current: { status: VerificationStatus; last_sequence: bigint },
  update: Pick<ProviderUpdate, 'status' | 'sequence'>,
): VerificationStatus | null {
  if (isFinal(current.status)) return null;
  if (BigInt(update.sequence) <= current.last_sequence) return null;
  switch (update.status) {
    case 'pending':
      return 'pending';
    case 'in_review':
      return 'in_review';
    case 'approved':
      return 'complete';
    case 'rejected':
    case 'canceled':
      return 'aborted';
  }
}

async function lockVerification(q: Queryable, id: string): Promise<VerificationRow> {
  const { rows } = await q.query<VerificationRow>(
    `SELECT ${COLUMNS} FROM verifications WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0]!;
}

async function finish(
  q: Queryable,
  row: VerificationRow,
  status: 'aborted' | 'complete',
  reason: string | null,
  sequence: bigint,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE verifications SET status = $2, reason = $3, last_sequence = $4, updated_at = $5, finished_at = $5
     WHERE id = $1`,
    [row.id, status, reason, sequence, now],
  );
  // The person's open app hears the outcome at once, through the event stream
  // (docs/decisions/back-office.md#the-back-office-on-the-apps-stack).
  await notify(
    q,
    row.user_id,
    'identification',
    status === 'complete' ? 'identification_approved' : 'identification_rejected',
    status === 'complete' ? {} : { reason: reason ?? REASON_REJECTED },
    now,
  );
  if (status !== 'complete') return;
  const level = await lockUserLevel(q, row.user_id);
  if (rank(level) >= rank(row.target_level)) return;
  await q.query('UPDATE users SET identification_level = $2 WHERE id = $1', [row.user_id, row.target_level]);
  await q.query(
    `INSERT INTO identification_level_changes (user_id, verification_id, from_level, to_level, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [row.user_id, row.id, level, row.target_level, now],
  );
}

/** Applies a provider update to a locked verification row; answers whether it changed anything. */
async function applyUpdate(
  q: Queryable,
  row: VerificationRow,
  update: ProviderUpdate,
  now: Date,
): Promise<boolean> {
  const status = nextStatus(row, update);
  if (!status) return false;
  const sequence = BigInt(update.sequence);
  if (status === 'complete') {
    await finish(q, row, 'complete', null, sequence, now);
  } else if (status === 'aborted') {
    await finish(q, row, 'aborted', update.reason?.trim() || REASON_REJECTED, sequence, now);
  } else {
    // A move between the active statuses restarts the waiting time of `pending`.
    await q.query(
      `UPDATE verifications SET status = $2, last_sequence = $3,
              updated_at = CASE WHEN status = $2 THEN updated_at ELSE $4 END
       WHERE id = $1`,
      [row.id, status, sequence, now],
    );
  }
  return true;
}

/**
 * Brings the latest verification up to date: asks the provider for its state when it is active,
 * and aborts one left pending longer than PENDING_TTL_MS (closing it at the provider too).
 */
export async function refreshLatest(ctx: AppContext, userId: string): Promise<void> {
  const latest = await latestVerification(ctx.db, userId);
  if (!latest || isFinal(latest.status)) return;
  const provider = ctx.kyc;
  let state: KycState | null = null;
  if (latest.provider_ref && latest.provider === provider.id) {
    try {
      state = await provider.fetch(latest.provider_ref);
    } catch {
      // The provider is unreachable: answer what is known; the next refresh asks again.
      state = null;
    }
  }
  const now = ctx.clock.now();
  const expired = await ctx.db.tx(async (q) => {
    await lockUserLevel(q, userId);
    let row = await lockVerification(q, latest.id);
    if (state && (await applyUpdate(q, row, state, now))) row = await lockVerification(q, latest.id);
    if (row.status === 'pending' && now.getTime() - row.updated_at.getTime() > PENDING_TTL_MS) {
      await finish(q, row, 'aborted', REASON_EXPIRED, row.last_sequence, now);
      return true;
    }
    return false;
  });
  if (expired && latest.provider_ref && latest.provider === provider.id) {
    await provider.cancel(latest.provider_ref, REASON_EXPIRED).catch(() => {});
  }
}

/**
 * POST /v2/wallet/identification-level/upgrade: starts a verification for the next level.
 * VERIFICATION_NOT_NEEDED at the top level, VERIFICATION_ACTIVE while one is pending or in review.
 */
export async function startUpgrade(
  ctx: AppContext,
  userId: string,
): Promise<{ verificationUrl: string; verification: ActiveIdentification }> {
  await refreshLatest(ctx, userId);
  const provider = ctx.kyc;
  const now = ctx.clock.now();
  let row: VerificationRow;
  try {
    row = await ctx.db.tx(async (q) => {
      const level = await lockUserLevel(q, userId);
      const target = nextLevel(level);
      if (!target) throw new AppError('VERIFICATION_NOT_NEEDED');
      const latest = await latestVerification(q, userId);
      if (latest && !isFinal(latest.status)) throw new AppError('VERIFICATION_ACTIVE');
      const { rows } = await q.query<VerificationRow>(
        `INSERT INTO verifications (user_id, target_level, provider, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'pending', $4, $4) RETURNING ${COLUMNS}`,
        [userId, target, provider.id, now],
      );
      return rows[0]!;
    });
  } catch (error) {
    // Another instance started one at the same moment: the unique index keeps it to one.
    if (pgCode(error) === PG.uniqueViolation) throw new AppError('VERIFICATION_ACTIVE');
    throw error;
  }

  let started: { providerId: string; url: string };
  try {
    started = await provider.start({ reference: row.id, userId, targetLevel: row.target_level });
  } catch (error) {
    await ctx.db.tx(async (q) => {
      await lockUserLevel(q, userId);
      const locked = await lockVerification(q, row.id);
      if (!isFinal(locked.status)) await finish(q, locked, 'aborted', REASON_PROVIDER_FAILED, 0n, now);
    });
    throw new AppError('PROVIDER_UNAVAILABLE', {}, `kyc start failed: ${(error as Error).message}`);
  }
  await ctx.db.query('UPDATE verifications SET provider_ref = $2, verification_url = $3 WHERE id = $1', [
    row.id,
    started.providerId,
    started.url,
  ]);
  return { verificationUrl: started.url, verification: toActiveIdentification(row) };
}

/** POST /v2/wallet/identification-level/status: refreshes, then answers the level and the latest verification. */
export async function identificationStatus(
  ctx: AppContext,
  userId: string,
): Promise<{ level: LevelName; verification: ActiveIdentification | null }> {
  await refreshLatest(ctx, userId);
  const level = await userLevel(ctx.db, userId);
  return { level, verification: await activeIdentification(ctx.db, userId) };
}

const EVENT_STATUS: Record<z.infer<typeof KycWebhook>['event'], KycProviderStatus> = {
  'verification.in_review': 'in_review',
  'verification.approved': 'approved',
  'verification.rejected': 'rejected',
};

/**
 * A verified provider callback. Unknown verifications answer VERIFICATION_NOT_FOUND (the provider
 * retries); anything else is accepted, applied when newer than what is known, ignored otherwise.
 */
export async function handleKycWebhook(
  ctx: AppContext,
  event: z.infer<typeof KycWebhook>,
): Promise<{ applied: boolean }> {
  const provider = ctx.kyc;
  const { rows } = await ctx.db.query<{ id: string; user_id: string }>(
    'SELECT id, user_id FROM verifications WHERE provider = $1 AND provider_ref = $2',
    [provider.id, event.verification_id],
  );
  const found = rows[0];
  if (!found) throw new AppError('VERIFICATION_NOT_FOUND');
  const now = ctx.clock.now();
  const applied = await ctx.db.tx(async (q) => {
    await lockUserLevel(q, found.user_id);
    const row = await lockVerification(q, found.id);
    return applyUpdate(
      q,
      row,
      { status: EVENT_STATUS[event.event], reason: event.reason, sequence: event.sequence },
      now,
    );
  });
  return { applied };
}

/**
 * POST /v2/wallet/identification-level/documents: the person's documents for their own
 * operator-reviewed application (KYC_PROVIDER=manual). The application then waits in_review.
 */
export async function submitDocuments(
  ctx: AppContext,
  userId: string,
  input: {
    application_id: string;
    document_type: string;
    document_number: string;
    full_name: string;
    birth_date: string;
  },
  language: Language,
): Promise<{ level: LevelName; verification: ActiveIdentification | null }> {
  const provider = ctx.kyc;
  const review = provider.operatorReview;
  if (!review) throw new AppError('VERIFICATION_NOT_FOUND');
  const checked = checkApplicant(input, ctx.clock.now());
  if (!checked.ok) throw new AppError('FIELD_INVALID', { field: fieldLabel(checked.fields[0]!, language) });
  await activeApplication(ctx, userId, input.application_id);
  if (!(await review.submit(input.application_id, userId, checked.applicant)))
    throw new AppError('VERIFICATION_NOT_FOUND');
  return identificationStatus(ctx, userId);
}

/** The person's own operator-reviewed application that is still open; VERIFICATION_NOT_FOUND otherwise. */
async function activeApplication(ctx: AppContext, userId: string, applicationId: string): Promise<void> {
  const latest = await latestVerification(ctx.db, userId);
  if (
    !latest ||
    isFinal(latest.status) ||
    latest.provider !== ctx.kyc.id ||
    latest.provider_ref !== applicationId
  )
    throw new AppError('VERIFICATION_NOT_FOUND');
}

/** The first bytes of each image type the photo upload takes: the declared type must match them. */
const PHOTO_ADDED = { ru: 'Фотография добавлена', en: 'The photo is attached' } as const;

/**
 * POST /v2/wallet/identification-level/documents/photo: one photo of the document for the person's
 * own application that waits for its documents (KYC_PROVIDER=manual), sealed at rest by the provider.
 */
export async function addDocumentPhoto(
  ctx: AppContext,
  userId: string,
  input: BodyOut<'uploadIdentificationPhoto'>,
  language: Language,
): Promise<AnswerOf<'uploadIdentificationPhoto'>> {
  const review = ctx.kyc.operatorReview;
  if (!review) throw new AppError('VERIFICATION_NOT_FOUND');
  const data = Buffer.from(input.data, 'base64');
  await activeApplication(ctx, userId, input.application_id);
  // Decoded and drawn anew (photo.ts): what is kept is the server's own JPEG, never the bytes sent.
  const photo =
    data.length > 0 && data.length <= PHOTO_MAX_BYTES ? await reencodePhoto(data, input.content_type) : null;
  if (!photo) throw new AppError('FIELD_INVALID', { field: fieldLabel('data', language) });
  const photos = await review.addPhoto(input.application_id, userId, photo);
  if (photos === 'closed') throw new AppError('VERIFICATION_NOT_FOUND');
  if (photos === 'full') throw new AppError('PHOTOS_LIMIT');
  return { status: 'success', message: PHOTO_ADDED[language], photos };
}
