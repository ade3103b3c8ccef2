/**
 * Identifications of the manual review (docs/decisions.md section 12): an application's photos (each
 * opening audited) and the decision, written with its audit line in one transaction. The queue is in
 * lists.ts.
 */
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { refreshLatest } from '../modules/identification/index.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';

/**
 * The photos of an application, opened, for an operator who decides identifications. Opening an
 * identity document is written to the audit like an action.
 */
export async function identificationPhotos(
  ctx: AppContext,
  by: Operator,
  id: string,
): Promise<Array<{ content_type: string; data: string }>> {
  const review = ctx.kyc.operatorReview;
  const application = review ? await review.application(id) : null;
  if (!review || !application) throw new AppError('NOT_FOUND');
  const photos = await review.photos(id);
  await writeAudit(ctx.db, ctx, by, {
    action: 'identification_photos_viewed',
    objectType: 'identification',
    objectId: id,
    userId: application.user_id,
    after: { photos: photos.length },
  });
  return photos.map((photo) => ({ content_type: photo.contentType, data: photo.data.toString('base64') }));
}

/**
 * Decides an application: the decision and its audit line in one transaction, then the wallet applies
 * it at once (approving raises the person to the application's level; `refreshLatest` does it, and
 * would on the person's next look were this instance to stop in between).
 */
export async function decideIdentification(
  ctx: AppContext,
  by: Operator,
  id: string,
  decision: { action: 'approve' } | { action: 'reject'; reason: string },
): Promise<unknown> {
  const review = ctx.kyc.operatorReview;
  if (!review) throw new AppError('APPLICATION_NOT_IN_REVIEW');
  const decided = await ctx.db.tx(async (q) => {
    const application = await review.decide(id, decision, by.email, q);
    if (!application) throw new AppError('APPLICATION_NOT_IN_REVIEW');
    const { rows } = await q.query<{ level: string }>(
      'SELECT identification_level AS level FROM users WHERE id = $1',
      [application.user_id],
    );
    const before = rows[0]?.level;
    await writeAudit(q, ctx, by, {
      action: `identification_${decision.action}`,
      objectType: 'identification',
      objectId: id,
      userId: application.user_id,
      before: { status: 'in_review', level: before },
      after: {
        status: application.status,
        level: decision.action === 'approve' ? application.target_level : before,
        ...(decision.action === 'reject' ? { reason: decision.reason } : {}),
      },
    });
    return application;
  });
  await refreshLatest(ctx, decided.user_id);
  const { rows } = await ctx.db.query<{ level: string }>(
    'SELECT identification_level AS level FROM users WHERE id = $1',
    [decided.user_id],
  );
  return { id, status: decided.status, level: rows[0]?.level };
}
