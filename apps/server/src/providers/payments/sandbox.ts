import { formatAmount, ID_PATTERN } from '@e-wallet/contract';
import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { type ProviderRecord, sandboxRecords } from '../records.ts';
import {
  deliver,
  httpTransport,
  signedWebhookRequest,
  type WebhookRequest,
  type WebhookTransport,
} from '../sandbox-webhooks.ts';
import type {
  CreatedPayment,
  CreatePaymentInput,
  HostedPayment,
  HostedPaymentDecision,
  HostedPaymentPage,
  PaymentReport,
  PaymentsProvider,
} from './payments-provider.ts';

export const PAYMENTS_WEBHOOK_PATH = '/v2/wallet/webhooks/payments';

export type SandboxPayment = HostedPayment;
export type SandboxDecision = HostedPaymentDecision;

const COLUMNS =
  'id, order_id, amount, currency, description, return_url, status, card_last4, method, cancellation_reason, created_at';

export class SandboxPaymentsProvider implements PaymentsProvider, HostedPaymentPage {
  readonly id = 'sandbox';
  readonly hostedPage: HostedPaymentPage = this;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #secret: string;
  #transport: WebhookTransport;

  constructor(config: Config, db: Db, clock: Clock) {
    if (config.production)
      throw new Error('The sandbox payments provider is refused when WALLET_ENV=production');
    this.#db = db;
    this.#clock = clock;
    this.#secret = config.WEBHOOK_SECRET;
    // Over HTTP to this server's public address, unless a sandbox route installs an in-process one.
    this.#transport = httpTransport(config.PUBLIC_URL);
  }

  /** The card payments made in [from, to), for reconciliation: the reference is our top-up order's id. */
  records(from: Date, to: Date): Promise<ProviderRecord[]> {
    return sandboxRecords(this.#db, 'sandbox_payments', 'order_id', from, to);
  }

  /** How webhooks travel; the sandbox page module sets an in-process one that still goes through the route. */
  setTransport(transport: WebhookTransport): void {
    this.#transport = transport;
  }

  async create(input: CreatePaymentInput): Promise<CreatedPayment> {
    const now = this.#clock.now();
    // The order id is the idempotence key: a second create answers the first payment.
    await this.#db.query(
      `INSERT INTO sandbox_payments (order_id, amount, currency, description, return_url, method, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (order_id) DO NOTHING`,
      [
        input.orderId,
        input.amount,
        input.currency,
        input.description.slice(0, 128),
        input.returnUrl,
        input.method,
        now,
      ],
    );
    const { rows } = await this.#db.query<SandboxPayment>(
      `SELECT ${COLUMNS} FROM sandbox_payments WHERE order_id = $1`,
      [input.orderId],
    );
    const payment = rows[0]!;
    // Relative: the page is served by this same server, so the browser stays on the app's origin.
    return { paymentId: payment.id, url: `/sandbox/pay/${payment.id}`, status: payment.status };
  }

  async payment(id: string): Promise<SandboxPayment | null> {
    if (!ID_PATTERN.test(id)) return null;
    const { rows } = await this.#db.query<SandboxPayment>(
      `SELECT ${COLUMNS} FROM sandbox_payments WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async fetch(paymentId: string): Promise<PaymentReport> {
    const payment = await this.payment(paymentId);
    if (!payment) throw new Error(`sandbox payment ${paymentId} does not exist`);
    return {
      paymentId: payment.id,
      orderId: payment.order_id,
      status: payment.status,
      amount: BigInt(payment.amount),
      currency: payment.currency,
    };
  }

  /**
   * The payer's decision on the hosted page. Answers null when the payment is no longer open (nothing
   * changes); otherwise records the outcome, notifies the wallet and answers the decided payment.
   */
  async decide(id: string, decision: SandboxDecision): Promise<SandboxPayment | null> {
    const now = this.#clock.now();
    const succeeded = decision.action === 'pay';
    const { rows } = await this.#db.query<SandboxPayment>(
      `UPDATE sandbox_payments SET status = $2, card_last4 = $3, cancellation_reason = $4, updated_at = $5
       WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
      [
        id,
        succeeded ? 'succeeded' : 'canceled',
        decision.cardLast4,
        decision.action === 'decline' ? decision.reason : null,
        now,
      ],
    );
    const decided = rows[0];
    if (!decided) return null;
    await this.notify(decided);
    return decided;
  }

  /** The signed request of the payment's callback, exactly as it is sent. */
  signedWebhook(payment: SandboxPayment): WebhookRequest {
    const now = this.#clock.now();
    return signedWebhookRequest(
      this.#secret,
      PAYMENTS_WEBHOOK_PATH,
      {
        event: payment.status === 'succeeded' ? 'payment.succeeded' : 'payment.canceled',
        payment_id: payment.id,
        order: payment.order_id,
        amount: formatAmount(BigInt(payment.amount), payment.currency),
        currency_code: payment.currency,
        occurred_at: now.toISOString(),
      },
      now,
    );
  }

  /** Sends the callback; a failure leaves the outcome fetchable (the wallet reconciles pending orders). */
  async notify(payment: SandboxPayment): Promise<number> {
    return deliver(this.#transport, this.signedWebhook(payment));
  }
}
