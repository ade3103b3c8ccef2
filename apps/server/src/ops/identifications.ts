/**
 * Identifications of the manual review (docs/decisions/back-office.md#the-operators-back-office): an
 * application's photos (each opening audited) and the decision, written with its audit line in one
 * transaction; and the queue.
 */
import { type OperatorRole, roleAllows } from '@e-wallet/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { refreshLatest } from '../modules/identification/index.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';
import { bounds, type Page, type PageQuery, pageOf } from './pages.ts';

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

/**
 * The identification queue ('pending': waiting for an operator) from the manual provider, newest first.
 * The provider answers its whole list; the page is cut here by (submitted_at, id).
 */
export async function identificationsPage(
  ctx: AppContext,
  role: OperatorRole,
  query: PageQuery & { status?: string | undefined },
): Promise<Page<unknown>> {
  const review = ctx.kyc.operatorReview;
  if (!review) return { results: [], next: null };
  const wanted = !query.status || query.status === 'pending' ? 'in_review' : query.status;
  if (!['in_review', 'approved', 'rejected', 'canceled', 'all'].includes(wanted))
    throw new AppError('FIELD_INVALID', { field: 'status' });
  const { after, limit } = bounds(ctx, query);
  const timeOf = (row: { submitted_at: Date | null; created_at: Date }) => row.submitted_at ?? row.created_at;
  const all = (await review.list(wanted as 'in_review'))
    .filter(
      (row) =>
        !after ||
        timeOf(row).getTime() < after.createdAt.getTime() ||
        (timeOf(row).getTime() === after.createdAt.getTime() && row.id < after.id),
    )
    .sort((a, b) => timeOf(b).getTime() - timeOf(a).getTime() || (a.id < b.id ? 1 : -1));
  const rows = all.slice(0, limit + 1);
  const ids = [...new Set(rows.map((row) => row.user_id))];
  const { rows: people } = await ctx.db.query<{ id: string }>(
    'SELECT id, first_name, last_name, phone, identification_level AS level FROM users WHERE id = ANY($1::uuid[])',
    [ids],
  );
  const byId = new Map(people.map((p) => [p.id, p]));
  // The full number and the photos only for those who decide.
  const full = roleAllows(role, 'identify');
  const page = pageOf(ctx, rows, limit, (row) => ({ createdAt: timeOf(row), id: row.id }));
  return {
    next: page.next,
    results: await Promise.all(
      page.results.map(async (row) => ({
        id: row.id,
        status: row.status === 'in_review' ? 'pending' : row.status,
        user: byId.get(row.user_id) ?? { id: row.user_id },
        target_level: row.target_level,
        document_type: row.document_type,
        document_number: full ? await review.documentNumber(row.id) : null,
        document_number_masked: row.document_number_masked,
        full_name: row.full_name,
        birth_date: row.birth_date,
        submitted_at: row.submitted_at,
        photos: full ? await review.photoCount(row.id) : null,
        reason: row.reason,
        decided_by: row.decided_by,
      })),
    ),
  };
}
