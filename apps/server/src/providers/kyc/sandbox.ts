/**
 * The sandbox KYC provider (docs/decisions/api.md#running-it-contracts-that-tests-rely-on): a complete
 * provider that lives in this server.
 * Its applications are rows of sandbox_kyc_applications; its hosted page /sandbox/kyc/:id
 * (modules/sandbox-kyc) lets the applicant enter document data and approve or reject. It then
 * notifies the wallet like a real provider: signed webhooks to POST /v2/wallet/webhooks/kyc,
 * first verification.in_review, then verification.approved or verification.rejected, each with
 * a growing sequence number. A lost callback is not lost for good: `fetch` answers the same state.
 */
import { ID_PATTERN } from '@e-wallet/contract';
import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { LevelName } from '../../policy/levels.ts';
import {
  deliver,
  httpTransport,
  signedWebhookRequest,
  type WebhookRequest,
  type WebhookTransport,
} from '../sandbox-webhooks.ts';
import { type Applicant, maskDocumentNumber } from './documents.ts';
import type { HostedKycPage, KycApplication, KycProvider, KycStart, KycState } from './kyc-provider.ts';

export const KYC_WEBHOOK_PATH = '/v2/wallet/webhooks/kyc';
export const DEFAULT_REJECT_REASON = 'Документ не прошёл проверку';

export type SandboxApplication = KycApplication;

export type SandboxDecision =
  | { action: 'approve'; applicant: Applicant }
  | { action: 'reject'; reason: string | null };

export type KycWebhookEvent = 'verification.in_review' | 'verification.approved' | 'verification.rejected';

export class SandboxKycProvider implements KycProvider {
  readonly id = 'sandbox';
  readonly hostedPage: HostedKycPage = this;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #config: Config;
  #transport: WebhookTransport;

  constructor(config: Config, db: Db, clock: Clock) {
    if (config.production) throw new Error('The sandbox KYC provider is refused when WALLET_ENV=production');
    this.#config = config;
    this.#db = db;
    this.#clock = clock;
    // Over HTTP to this server's public address, unless a sandbox route installs an in-process one.
    this.#transport = httpTransport(config.PUBLIC_URL);
  }

  /** How webhooks travel; the sandbox page sets an in-process one that still goes through the route. */
  setTransport(transport: WebhookTransport): void {
    this.#transport = transport;
  }

  async start(input: { reference: string; userId: string; targetLevel: LevelName }): Promise<KycStart> {
    const now = this.#clock.now();
    const { rows } = await this.#db.query<{ id: string }>(
      `INSERT INTO sandbox_kyc_applications (reference, user_id, target_level, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4) RETURNING id`,
      [input.reference, input.userId, input.targetLevel, now],
    );
    const id = rows[0]!.id;
    // Relative: the page is served by this same server, so the browser stays on the app's origin.
    return { providerId: id, url: `/sandbox/kyc/${id}` };
  }

  async application(id: string): Promise<SandboxApplication | null> {
    if (!ID_PATTERN.test(id)) return null;
    const { rows } = await this.#db.query<SandboxApplication>(
      `SELECT id, reference, user_id, target_level, status, reason, sequence, document_type,
              document_number_masked, full_name, birth_date, created_at
       FROM sandbox_kyc_applications WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async fetch(providerId: string): Promise<KycState> {
    const application = await this.application(providerId);
    if (!application) throw new Error(`sandbox KYC application ${providerId} does not exist`);
    return {
      status: application.status,
      reason: application.reason,
      sequence: Number(application.sequence),
    };
  }

  async cancel(providerId: string, reason: string): Promise<void> {
    await this.#db.query(
      `UPDATE sandbox_kyc_applications SET status = 'canceled', reason = $2, sequence = sequence + 1,
              updated_at = $3
       WHERE id = $1 AND status IN ('pending', 'in_review')`,
      [providerId, reason, this.#clock.now()],
    );
  }

  /**
   * The applicant's decision on the hosted page. Answers false when the application is no longer
   * open. Otherwise records it and notifies the wallet (in_review, then the outcome).
   */
  async decide(id: string, decision: SandboxDecision): Promise<boolean> {
    const now = this.#clock.now();
    const decided = await this.#db.tx(async (q) => {
      const { rows } = await q.query<{ sequence: bigint }>(
        'SELECT sequence FROM sandbox_kyc_applications WHERE id = $1 AND status = $2 FOR UPDATE',
        [id, 'pending'],
      );
      const row = rows[0];
      if (!row) return null;
      const sequence = row.sequence + 2n;
      if (decision.action === 'approve') {
        const a = decision.applicant;
        await q.query(
          `UPDATE sandbox_kyc_applications SET status = 'approved', reason = NULL, sequence = $2,
                  document_type = $3, document_number_masked = $4, full_name = $5, birth_date = $6,
                  updated_at = $7
           WHERE id = $1`,
          [id, sequence, a.documentType, maskDocumentNumber(a.documentNumber), a.fullName, a.birthDate, now],
        );
      } else {
        await q.query(
          `UPDATE sandbox_kyc_applications SET status = 'rejected', reason = $2, sequence = $3, updated_at = $4
           WHERE id = $1`,
          [id, decision.reason ?? DEFAULT_REJECT_REASON, sequence, now],
        );
      }
      return { sequence: Number(sequence), reason: decision.action === 'reject' ? decision.reason : null };
    });
    if (!decided) return false;
    await this.notify(id, 'verification.in_review', decided.sequence - 1, null);
    await this.notify(
      id,
      decision.action === 'approve' ? 'verification.approved' : 'verification.rejected',
      decided.sequence,
      decision.action === 'approve' ? null : (decided.reason ?? DEFAULT_REJECT_REASON),
    );
    return true;
  }

  /** The signed request of one callback, exactly as it is sent. */
  signedWebhook(id: string, event: KycWebhookEvent, sequence: number, reason: string | null): WebhookRequest {
    const now = this.#clock.now();
    return signedWebhookRequest(
      this.#config.WEBHOOK_SECRET,
      KYC_WEBHOOK_PATH,
      { event, verification_id: id, reason, sequence, occurred_at: now.toISOString() },
      now,
    );
  }

  /** Sends one callback; a failure is logged by the caller's logger only, the state stays fetchable. */
  async notify(id: string, event: KycWebhookEvent, sequence: number, reason: string | null): Promise<number> {
    return deliver(this.#transport, this.signedWebhook(id, event, sequence, reason));
  }
}
