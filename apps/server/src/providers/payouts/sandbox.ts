/**
 * The sandbox payouts provider (docs/decisions.md section 5): honest and complete, asynchronous, with
 * failures. A payout settles SANDBOX_PAYOUT_DELAY_MS after it was created; the test card decides how:
 *   4111 1111 1111 1111  succeeds        4000 0000 0000 0002  is declined        any other valid card succeeds
 * Bank-account payouts (GOST QR payments) succeed. Only the outcome flag and the masked destination are
 * kept, never the card number.
 *
 * Crash-safe: pending payouts are rows of sandbox_payouts with a due time. `runDue` (called by the
 * background worker of every server instance) claims due rows with FOR UPDATE SKIP LOCKED and a lease,
 * so two instances never settle one at the same time, then notifies the wallet like a real provider:
 * a signed webhook to POST /v2/wallet/webhooks/payouts. A row is done only once its webhook was
 * accepted; until then it is retried (the wallet applies a repeated webhook once).
 */

import { randomUUID } from 'node:crypto';
import { ID_PATTERN } from '@e-wallet/contract';
import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { type ProviderRecord, sandboxRecords } from '../records.ts';
import { deliver, httpTransport, signedWebhookRequest, type WebhookTransport } from '../sandbox-webhooks.ts';
import {
  maskCard,
  type PayoutDestination,
  type PayoutRequest,
  type PayoutState,
  type PayoutStatus,
  type PayoutsProvider,
  payoutStatusOf,
} from './payouts-provider.ts';

export const PAYOUTS_WEBHOOK_PATH = '/v2/wallet/webhooks/payouts';
export const SANDBOX_DECLINED_CARD = '4000000000000002';
export const SANDBOX_DECLINE_REASON = 'Банк-эмитент отклонил выплату (тестовая карта 4000 0000 0000 0002)';
/** How long a claimed row belongs to the worker that claimed it. */
const LEASE_MS = 60_000;
/** After a webhook was not accepted, when to try it again. */
const RETRY_MS = 2_000;
const BATCH = 20;

interface SandboxPayoutRow {
  id: string;
  reference: string;
  outcome: 'succeed' | 'fail';
  status: PayoutStatus;
  reason: string | null;
  due_at: Date;
}

function outcomeOf(destination: PayoutDestination): 'succeed' | 'fail' {
  return destination.type === 'bank_card' && destination.number === SANDBOX_DECLINED_CARD
    ? 'fail'
    : 'succeed';
}

function maskedDestination(destination: PayoutDestination): string {
  return destination.type === 'bank_card' ? maskCard(destination.number) : destination.account;
}

export class SandboxPayoutsProvider implements PayoutsProvider {
  readonly id = 'sandbox';
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #config: Config;
  #transport: WebhookTransport;

  constructor(config: Config, db: Db, clock: Clock) {
    if (config.production)
      throw new Error('The sandbox payouts provider is refused when WALLET_ENV=production');
    this.#config = config;
    this.#db = db;
    this.#clock = clock;
    // Over HTTP to this server's public address, unless a sandbox route installs an in-process one.
    this.#transport = httpTransport(config.PUBLIC_URL);
  }

  /** The payouts made in [from, to), for reconciliation: the reference is our payout's id. */
  records(from: Date, to: Date): Promise<ProviderRecord[]> {
    return sandboxRecords(this.#db, 'sandbox_payouts', 'reference', from, to);
  }

  /** How webhooks travel; the server sets an in-process one that still goes through the signed route. */
  setTransport(transport: WebhookTransport): void {
    this.#transport = transport;
  }

  supports(): boolean {
    return true;
  }

  async payout(request: PayoutRequest): Promise<PayoutState> {
    const now = this.#clock.now();
    const dueAt = new Date(now.getTime() + this.#config.SANDBOX_PAYOUT_DELAY_MS);
    await this.#db.query(
      `INSERT INTO sandbox_payouts (id, idempotence_key, reference, amount, currency, destination_type, destination,
         outcome, due_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (idempotence_key) DO NOTHING`,
      [
        randomUUID(),
        request.idempotenceKey,
        request.reference,
        request.amount,
        request.currency,
        request.destination.type,
        maskedDestination(request.destination),
        outcomeOf(request.destination),
        dueAt,
        now,
      ],
    );
    const { rows } = await this.#db.query<SandboxPayoutRow>(
      'SELECT id, reference, outcome, status, reason, due_at FROM sandbox_payouts WHERE idempotence_key = $1',
      [request.idempotenceKey],
    );
    // Like a real provider, a new payout is accepted as pending; its outcome comes later, by webhook.
    const row = rows[0]!;
    return row.status === 'pending'
      ? { providerId: row.id, status: 'pending', reason: null }
      : this.#state(row);
  }

  async fetch(providerId: string): Promise<PayoutState> {
    const row = await this.#row('id', providerId);
    if (!row) throw new Error(`sandbox payout ${providerId} not found`);
    return this.#state(row);
  }

  async findByReference(reference: string): Promise<PayoutState | null> {
    const row = await this.#row('reference', reference);
    return row ? this.#state(row) : null;
  }

  async #row(column: 'id' | 'reference', value: string): Promise<SandboxPayoutRow | null> {
    if (!ID_PATTERN.test(value)) return null;
    const { rows } = await this.#db.query<SandboxPayoutRow>(
      `SELECT id, reference, outcome, status, reason, due_at FROM sandbox_payouts WHERE ${column} = $1
       ORDER BY created_at LIMIT 1`,
      [value],
    );
    return rows[0] ?? null;
  }

  /** The state a row shows: once due, its outcome is final even before the worker has sent the webhook. */
  #state(row: SandboxPayoutRow): PayoutState {
    const due = row.due_at.getTime() <= this.#clock.now().getTime();
    const status: PayoutStatus =
      row.status !== 'pending'
        ? row.status
        : due
          ? row.outcome === 'fail'
            ? 'canceled'
            : 'succeeded'
          : 'pending';
    return {
      providerId: row.id,
      status: payoutStatusOf(status),
      reason: status === 'canceled' ? (row.reason ?? SANDBOX_DECLINE_REASON) : null,
    };
  }

  /**
   * Settles the payouts that are due and notifies the wallet of each. Claims rows in a short
   * transaction (SKIP LOCKED: another instance's claim is skipped, not waited for), then sends the
   * webhooks outside any transaction.
   */
  async runDue(): Promise<number> {
    const now = this.#clock.now();
    const claimed = await this.#db.tx(async (q) => {
      const { rows } = await q.query<SandboxPayoutRow>(
        `UPDATE sandbox_payouts AS p
         SET lease_until = $2, attempts = p.attempts + 1,
             status = CASE WHEN p.status <> 'pending' THEN p.status
                           WHEN p.outcome = 'fail' THEN 'canceled' ELSE 'succeeded' END,
             reason = CASE WHEN p.outcome = 'fail' THEN coalesce(p.reason, $3) ELSE p.reason END
         WHERE p.id IN (
           SELECT id FROM sandbox_payouts
           WHERE notified_at IS NULL AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
           ORDER BY due_at LIMIT ${BATCH}
           FOR UPDATE SKIP LOCKED)
         RETURNING p.id, p.reference, p.outcome, p.status, p.reason, p.due_at`,
        [now, new Date(now.getTime() + LEASE_MS), SANDBOX_DECLINE_REASON],
      );
      return rows;
    });
    let delivered = 0;
    for (const row of claimed) {
      const now = this.#clock.now();
      const status = await deliver(
        this.#transport,
        signedWebhookRequest(
          this.#config.WEBHOOK_SECRET,
          PAYOUTS_WEBHOOK_PATH,
          {
            event: row.status === 'canceled' ? 'payout.canceled' : 'payout.succeeded',
            payout_id: row.id,
            reference: row.reference,
            reason: row.status === 'canceled' ? row.reason : null,
            occurred_at: now.toISOString(),
          },
          now,
        ),
      );
      if (status >= 200 && status < 300) {
        await this.#db.query(
          'UPDATE sandbox_payouts SET notified_at = $2, lease_until = NULL WHERE id = $1',
          [row.id, this.#clock.now()],
        );
        delivered += 1;
      } else {
        // Not accepted (the wallet is down or starting): try again soon, whoever claims it then.
        await this.#db.query('UPDATE sandbox_payouts SET lease_until = $2 WHERE id = $1', [
          row.id,
          new Date(this.#clock.now().getTime() + RETRY_MS),
        ]);
      }
    }
    return delivered;
  }
}
