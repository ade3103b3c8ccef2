/**
 * Identification by operator review (KYC_PROVIDER=manual): for production until a KYC service is
 * contracted. The person enters their document data in the app's form (the verification's url is
 * the app's Settings page with ?documents=<id>); the application then waits in_review for an
 * operator, who approves or rejects it (today with `npm run ops -- identification-approve <id>`,
 * later in the back office). The wallet learns the state through `fetch`, like any provider's.
 */
import { ID_PATTERN } from '@e-wallet/contract';
import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import { documentsKey, open, seal } from '../../crypto/sealed.ts';
import type { Db, Queryable } from '../../db/client.ts';
import type { LevelName } from '../../policy/levels.ts';
import { type Applicant, maskDocumentNumber } from './documents.ts';
import type {
  KycApplication,
  KycProvider,
  KycProviderStatus,
  KycStart,
  KycState,
  OperatorReview,
} from './kyc-provider.ts';

/** The app's Settings route shows the documents form for `?documents=<application id>`. */
export const DOCUMENTS_PAGE = '/settings?documents=';
/** Photos a person may attach to one application: the document's pages, not an album. */
export const PHOTOS_PER_APPLICATION = 3;

/** Operator review adds when the documents came and who decided, and when. */
export interface ManualApplication extends KycApplication {
  submitted_at: Date | null;
  decided_at: Date | null;
  decided_by: string | null;
}

const COLUMNS = `id, reference, user_id, target_level, status, reason, sequence, document_type,
  document_number_masked, full_name, birth_date, submitted_at, decided_at, decided_by, created_at`;

export class ManualKycProvider implements KycProvider {
  readonly id = 'manual';
  readonly operatorReview: OperatorReview = this;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #key: Buffer;

  constructor(config: Config, db: Db, clock: Clock) {
    if (!config.DOCUMENTS_KEY) throw new Error('DOCUMENTS_KEY is required with KYC_PROVIDER=manual');
    this.#db = db;
    this.#clock = clock;
    this.#key = documentsKey(config.DOCUMENTS_KEY);
  }

  async start(input: { reference: string; userId: string; targetLevel: LevelName }): Promise<KycStart> {
    const now = this.#clock.now();
    const { rows } = await this.#db.query<{ id: string }>(
      `INSERT INTO manual_kyc_applications (reference, user_id, target_level, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4) RETURNING id`,
      [input.reference, input.userId, input.targetLevel, now],
    );
    const id = rows[0]!.id;
    return { providerId: id, url: `${DOCUMENTS_PAGE}${id}` };
  }

  async application(id: string): Promise<ManualApplication | null> {
    if (!ID_PATTERN.test(id)) return null;
    const { rows } = await this.#db.query<ManualApplication>(
      `SELECT ${COLUMNS} FROM manual_kyc_applications WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Applications by status (the operators' queue: oldest submitted first). */
  async list(status: KycProviderStatus | 'all' = 'in_review', limit = 100): Promise<ManualApplication[]> {
    const { rows } = await this.#db.query<ManualApplication>(
      `SELECT ${COLUMNS} FROM manual_kyc_applications WHERE ($1 = 'all' OR status = $1)
       ORDER BY submitted_at NULLS LAST, created_at LIMIT $2`,
      [status, limit],
    );
    return rows;
  }

  async fetch(providerId: string): Promise<KycState> {
    const application = await this.application(providerId);
    if (!application) throw new Error(`manual KYC application ${providerId} does not exist`);
    return { status: application.status, reason: application.reason, sequence: Number(application.sequence) };
  }

  async cancel(providerId: string, reason: string): Promise<void> {
    await this.#db.query(
      `UPDATE manual_kyc_applications SET status = 'canceled', reason = $2, sequence = sequence + 1, updated_at = $3
       WHERE id = $1 AND status IN ('pending', 'in_review')`,
      [providerId, reason, this.#clock.now()],
    );
  }

  /**
   * The person's documents for their own pending application; false when it is not theirs or no
   * longer waits for documents. The number is sealed, only its last four digits stay readable.
   */
  async submit(id: string, userId: string, applicant: Applicant): Promise<boolean> {
    const now = this.#clock.now();
    return this.#db.tx(async (q) => {
      const { rows } = await q.query<{ id: string }>(
        `UPDATE manual_kyc_applications SET status = 'in_review', sequence = sequence + 1,
                document_type = $3, document_number_sealed = $4, document_number_masked = $5,
                full_name = $6, birth_date = $7, submitted_at = $8, updated_at = $8
         WHERE id = $1 AND user_id = $2 AND status = 'pending' RETURNING id`,
        [
          id,
          userId,
          applicant.documentType,
          seal(this.#key, Buffer.from(applicant.documentNumber, 'utf8'), `document_number:${id}`),
          maskDocumentNumber(applicant.documentNumber),
          applicant.fullName,
          applicant.birthDate,
          now,
        ],
      );
      return !!rows[0];
    });
  }

  /**
   * A photo of the document for the person's own application that still waits for its documents,
   * sealed like the number: how many it has now, 'full' at PHOTOS_PER_APPLICATION, 'closed' when the
   * application is not theirs or no longer pending. The application's row is locked, so parallel
   * uploads never pass the cap.
   */
  async addPhoto(
    id: string,
    userId: string,
    photo: { contentType: string; data: Buffer },
  ): Promise<number | 'full' | 'closed'> {
    const now = this.#clock.now();
    return this.#db.tx(async (q) => {
      const locked = await q.query(
        `SELECT 1 FROM manual_kyc_applications WHERE id = $1 AND user_id = $2 AND status = 'pending' FOR UPDATE`,
        [id, userId],
      );
      if (locked.rows.length === 0) return 'closed';
      // Counted in a statement of its own, after the lock: its snapshot sees the photos of whoever held it.
      const { rows } = await q.query<{ photos: number }>(
        'SELECT count(*)::int AS photos FROM manual_kyc_photos WHERE application_id = $1',
        [id],
      );
      const photos = rows[0]?.photos ?? 0;
      if (photos >= PHOTOS_PER_APPLICATION) return 'full';
      await q.query(
        'INSERT INTO manual_kyc_photos (application_id, content_type, sealed, created_at) VALUES ($1, $2, $3, $4)',
        [id, photo.contentType, seal(this.#key, photo.data, `photo:${id}`), now],
      );
      return photos + 1;
    });
  }

  /** How many photos an application has, without opening them. */
  async photoCount(id: string): Promise<number> {
    const { rows } = await this.#db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM manual_kyc_photos WHERE application_id = $1',
      [id],
    );
    return rows[0]?.n ?? 0;
  }

  /** The photos of an application, opened, for the operator who reviews it. */
  async photos(id: string): Promise<Array<{ id: string; contentType: string; data: Buffer }>> {
    if (!ID_PATTERN.test(id)) return [];
    const { rows } = await this.#db.query<{ id: string; content_type: string; sealed: Buffer }>(
      'SELECT id, content_type, sealed FROM manual_kyc_photos WHERE application_id = $1 ORDER BY created_at, id',
      [id],
    );
    return rows.map((row) => ({
      id: row.id,
      contentType: row.content_type,
      data: open(this.#key, Buffer.from(row.sealed), `photo:${id}`),
    }));
  }

  /** The full document number, for the operator who reviews it. */
  async documentNumber(id: string): Promise<string | null> {
    const { rows } = await this.#db.query<{ document_number_sealed: Buffer | null }>(
      'SELECT document_number_sealed FROM manual_kyc_applications WHERE id = $1',
      [id],
    );
    const sealed = rows[0]?.document_number_sealed;
    return sealed ? open(this.#key, Buffer.from(sealed), `document_number:${id}`).toString('utf8') : null;
  }

  /** An operator's decision on an application in review; false when it is not in review. */
  /** Decides an application in review; `q` is the operator's transaction, which writes its audit line too. */
  async decide(
    id: string,
    decision: { action: 'approve' } | { action: 'reject'; reason: string },
    operator: string,
    q: Queryable = this.#db,
  ): Promise<ManualApplication | null> {
    if (!ID_PATTERN.test(id)) return null;
    const { rows } = await q.query<ManualApplication>(
      `UPDATE manual_kyc_applications SET status = $2, reason = $3, sequence = sequence + 1,
              decided_at = $4, decided_by = $5, updated_at = $4
       WHERE id = $1 AND status = 'in_review' RETURNING ${COLUMNS}`,
      [
        id,
        decision.action === 'approve' ? 'approved' : 'rejected',
        decision.action === 'reject' ? decision.reason : null,
        this.#clock.now(),
        operator,
      ],
    );
    return rows[0] ?? null;
  }
}
