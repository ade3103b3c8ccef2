/**
 * The sandbox payouts provider (docs/decisions/api.md#running-it-contracts-that-tests-rely-on): honest and
 * complete, asynchronous, with failures. A payout settles SANDBOX_PAYOUT_DELAY_MS after it was created; the
 * test card decides how:
 *   4111 1111 1111 1111  succeeds        4000 0000 0000 0002  is declined        any other valid card succeeds
 * Bank-account payouts (GOST QR payments) succeed. СБП payouts (docs/decisions/sbp.md#the-sandbox) go to
 * SANDBOX_SBP_BANKS: 100000000901 pays, 100000000902 always declines, 100000000903 fails the recipient
 * check; a bank not in the list is refused. Only the outcome flag and the masked destination are kept,
 * never the card number or the full phone.
 *
 * Crash-safe: pending payouts are rows of sandbox_payouts with a due time, and each has a job on the
 * `sandbox-payout` queue (docs/decisions/jobs.md#one-job-system) due at that time. The job claims its row
 * with a lease (a conditional UPDATE, so two instances never settle one at the same time), then notifies the
 * wallet like a real provider: a signed webhook to POST /v2/wallet/webhooks/payouts. A row is done only
 * once its webhook was accepted; until then the job fails and is retried with backoff (the wallet
 * applies a repeated webhook once). `runDue` is one pass over every due row, for tests.
 */

import { randomUUID } from 'node:crypto';
import { ID_PATTERN } from '@e-wallet/contract';
import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { Jobs } from '../../jobs/index.ts';
import { type ProviderRecord, sandboxRecords } from '../records.ts';
import { deliver, httpTransport, signedWebhookRequest, type WebhookTransport } from '../sandbox-webhooks.ts';
import {
  maskCard,
  maskPhone,
  type PayoutDestination,
  PayoutRejected,
  type PayoutRequest,
  type PayoutState,
  type PayoutStatus,
  type PayoutsProvider,
  payoutStatusOf,
  type SbpBank,
} from './payouts-provider.ts';
import { SANDBOX_SBP_BANKS, sandboxRecipientName, sandboxSbpOutcome } from './sandbox-sbp.ts';

export const PAYOUTS_WEBHOOK_PATH = '/v2/wallet/webhooks/payouts';
export const SANDBOX_DECLINED_CARD = '4000000000000002';
export const SANDBOX_DECLINE_REASON = 'Банк-эмитент отклонил выплату (тестовая карта 4000 0000 0000 0002)';
/** How long a claimed row belongs to the worker that claimed it. */
const LEASE_MS = 60_000;
/** After a webhook was not accepted, when to try it again. */
const RETRY_MS = 2_000;
const BATCH = 20;
export const SANDBOX_PAYOUT_QUEUE = 'sandbox-payout';

interface SandboxPayoutRow {
  id: string;
  reference: string;
  outcome: 'succeed' | 'fail';
  status: PayoutStatus;
  reason: string | null;
  due_at: Date;
}

function outcomeOf(destination: PayoutDestination): { outcome: 'succeed' | 'fail'; reason: string | null } {
  if (destination.type === 'sbp') return sandboxSbpOutcome(destination);
  return destination.type === 'bank_card' && destination.number === SANDBOX_DECLINED_CARD
    ? { outcome: 'fail', reason: null }
    : { outcome: 'succeed', reason: null };
}

function maskedDestination(destination: PayoutDestination): string {
  if (destination.type === 'sbp') return `${maskPhone(destination.phone)} ${destination.bankId}`;
  return destination.type === 'bank_card' ? maskCard(destination.number) : destination.account;
}

export class SandboxPayoutsProvider implements PayoutsProvider {
  readonly id = 'sandbox';
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #config: Config;
  #transport: WebhookTransport;

  readonly #jobs: Jobs | undefined;

  constructor(config: Config, db: Db, clock: Clock, jobs?: Jobs) {
    if (config.production)
      throw new Error('The sandbox payouts provider is refused when WALLET_ENV=production');
    this.#config = config;
    this.#db = db;
    this.#clock = clock;
    this.#jobs = jobs;
    // Over HTTP to this server's public address, unless a sandbox route installs an in-process one.
    this.#transport = httpTransport(config.PUBLIC_URL);
    jobs?.define<{ id: string }>({
      name: SANDBOX_PAYOUT_QUEUE,
      policy: 'stately',
      run: async ({ id }) => {
        const outcome = await this.deliverDue(id, 0);
        if (outcome === 'refused')
          throw new Error(`the wallet did not accept the webhook of sandbox payout ${id}`);
        if (outcome === 'not_due') await this.#sendJob(id, 1);
      },
      // Rows whose job was lost with an instance get one again.
      onStart: async () => {
        const { rows } = await db.query<{ id: string; due_at: Date }>(
          'SELECT id, due_at FROM sandbox_payouts WHERE notified_at IS NULL ORDER BY due_at',
        );
        const now = this.#clock.now().getTime();
        for (const row of rows) await this.#sendJob(row.id, (row.due_at.getTime() - now) / 1000);
      },
    });
  }

  async #sendJob(id: string, afterSeconds: number): Promise<void> {
    await this.#jobs
      ?.send(SANDBOX_PAYOUT_QUEUE, { id }, { startAfterSeconds: Math.max(0, afterSeconds), singletonKey: id })
      .catch((error: Error) => console.warn(`sandbox payout ${id}: job not queued (${error.message})`));
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

  async sbpBanks(): Promise<SbpBank[]> {
    return SANDBOX_SBP_BANKS.map(({ id, name }) => ({ id, name }));
  }

  async sbpRecipientName(phone: string, bankId: string): Promise<string | null> {
    return SANDBOX_SBP_BANKS.some((bank) => bank.id === bankId) ? sandboxRecipientName(phone) : null;
  }

  async payout(request: PayoutRequest): Promise<PayoutState> {
    const { destination } = request;
    // Like a real provider, a participant it does not know is refused at once (nothing is sent).
    if (destination.type === 'sbp' && !SANDBOX_SBP_BANKS.some((bank) => bank.id === destination.bankId))
      throw new PayoutRejected('unknown СБП participant');
    const { outcome, reason } = outcomeOf(destination);
    const now = this.#clock.now();
    const dueAt = new Date(now.getTime() + this.#config.SANDBOX_PAYOUT_DELAY_MS);
    await this.#db.query(
      `INSERT INTO sandbox_payouts (id, idempotence_key, reference, amount, currency, destination_type, destination,
         outcome, reason, due_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (idempotence_key) DO NOTHING`,
      [
        randomUUID(),
        request.idempotenceKey,
        request.reference,
        request.amount,
        request.currency,
        request.destination.type,
        maskedDestination(request.destination),
        outcome,
        reason,
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
    if (row.status === 'pending') await this.#sendJob(row.id, this.#config.SANDBOX_PAYOUT_DELAY_MS / 1000);
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
   * Settles one due payout and notifies the wallet: the row is claimed with a lease by a conditional
   * UPDATE (another instance's claim, committed first, makes this one find nothing). A webhook the
   * wallet did not accept frees the row again after `retryAfterMs`.
   */
  async deliverDue(
    id: string,
    retryAfterMs = RETRY_MS,
  ): Promise<'delivered' | 'refused' | 'not_due' | 'done'> {
    const now = this.#clock.now();
    const { rows } = await this.#db.query<SandboxPayoutRow>(
      `UPDATE sandbox_payouts AS p
       SET lease_until = $3, attempts = p.attempts + 1,
           status = CASE WHEN p.status <> 'pending' THEN p.status
                         WHEN p.outcome = 'fail' THEN 'canceled' ELSE 'succeeded' END,
           reason = CASE WHEN p.outcome = 'fail' THEN coalesce(p.reason, $4) ELSE p.reason END
       WHERE p.id = $1 AND p.notified_at IS NULL AND p.due_at <= $2 AND (p.lease_until IS NULL OR p.lease_until <= $2)
       RETURNING p.id, p.reference, p.outcome, p.status, p.reason, p.due_at`,
      [id, now, new Date(now.getTime() + LEASE_MS), SANDBOX_DECLINE_REASON],
    );
    const row = rows[0];
    if (!row) {
      const { rows: left } = await this.#db.query<{ due: boolean }>(
        'SELECT due_at > $2 AS due FROM sandbox_payouts WHERE id = $1 AND notified_at IS NULL',
        [id, now],
      );
      return left[0]?.due ? 'not_due' : 'done';
    }
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
      await this.#db.query('UPDATE sandbox_payouts SET notified_at = $2, lease_until = NULL WHERE id = $1', [
        row.id,
        this.#clock.now(),
      ]);
      return 'delivered';
    }
    // Not accepted (the wallet is down or starting): free for whoever tries next.
    await this.#db.query('UPDATE sandbox_payouts SET lease_until = $2 WHERE id = $1', [
      row.id,
      new Date(this.#clock.now().getTime() + retryAfterMs),
    ]);
    return 'refused';
  }

  /** One pass over every due payout (tests drive it; a running server has each one's job). */
  async runDue(): Promise<number> {
    const now = this.#clock.now();
    const { rows } = await this.#db.query<{ id: string }>(
      `SELECT id FROM sandbox_payouts
       WHERE notified_at IS NULL AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
       ORDER BY due_at LIMIT ${BATCH}`,
      [now],
    );
    let delivered = 0;
    for (const row of rows) if ((await this.deliverDue(row.id)) === 'delivered') delivered += 1;
    return delivered;
  }
}
