/**
 * YooKassa (API v3) as the payments provider. What it uses of the API:
 *   POST {YOOKASSA_API_URL}/payments      Basic auth shopId:secretKey, an Idempotence-Key header (our
 *        order id), {amount: {value: '100.00', currency: 'RUB'}, capture: true,
 *        confirmation: {type: 'redirect', return_url}, description, metadata: {order_id}}, and for a
 *        top-up by СБП `payment_method_data: {type: 'sbp'}` (the page shows a QR or opens the bank app);
 *        answers the payment with confirmation.confirmation_url, where the person pays.
 *   GET  {YOOKASSA_API_URL}/payments/{id} the payment's current state.
 *   GET  {YOOKASSA_API_URL}/payments?created_at.gte=&created_at.lt=&limit=100[&cursor=] the payments
 *        made in a period, page by page (the back office's reconciliation).
 * Notifications (payment.succeeded, payment.canceled) are POSTed to
 * /v2/wallet/webhooks/payments/yookassa. They are not signed, so, as YooKassa documents, a notification
 * is only a hint: the payment named in it is fetched from the API and only that answer is believed.
 */
import { type CurrencyCode, formatAmount, isCurrencyCode, parseAmount } from '@e-wallet/contract';
import { z } from 'zod';
import { type Config, ConfigError, isSecureUrl } from '../../config.ts';
import type { ProviderRecord } from '../records.ts';
import type {
  CreatedPayment,
  CreatePaymentInput,
  PaymentReport,
  PaymentStatus,
  PaymentsProvider,
} from './payments-provider.ts';
import { PaymentsProviderError } from './payments-provider.ts';

export const YOOKASSA_WEBHOOK_PATH = '/v2/wallet/webhooks/payments/yookassa';
const TIMEOUT_MS = 10_000;

const YooKassaPayment = z.object({
  id: z.string().min(1).max(100),
  status: z.string(),
  amount: z.object({ value: z.string().max(32), currency: z.string().max(3) }),
  confirmation: z.object({ type: z.string(), confirmation_url: z.url().optional() }).optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  created_at: z.string().max(40).optional(),
});
type YooKassaPayment = z.infer<typeof YooKassaPayment>;
const YooKassaList = z.object({
  type: z.literal('list'),
  items: z.array(YooKassaPayment).max(100),
  next_cursor: z.string().max(500).optional(),
});
/** Pages read for one period at most: 50 000 payments a day is far beyond this wallet's volume. */
const MAX_PAGES = 500;

/** A notification's body; only the payment id in it is used (then fetched). */
export const YooKassaNotification = z.object({
  type: z.literal('notification'),
  event: z.string().max(100),
  object: z.object({ id: z.string().min(1).max(100) }),
});

/** The payment does not exist at YooKassa (a forged or misrouted notification). */
export class PaymentNotFoundError extends PaymentsProviderError {}

/** The one place YooKassa's statuses become ours. */
export function mapYooKassaStatus(status: string): PaymentStatus {
  switch (status) {
    case 'pending':
    // We create payments with capture: true, so this is brief; the money is not ours until 'succeeded'.
    case 'waiting_for_capture':
      return 'pending';
    case 'succeeded':
      return 'succeeded';
    case 'canceled':
      return 'canceled';
    default:
      throw new PaymentsProviderError(
        `unknown YooKassa payment status ${JSON.stringify(status).slice(0, 40)}`,
      );
  }
}

export interface YooKassaOptions {
  apiUrl: string;
  shopId: string;
  secretKey: string;
}

/** Checks the settings at boot: a bad one stops start-up with a line naming it. */
export function yooKassaOptions(config: Config): YooKassaOptions {
  const shopId = config.YOOKASSA_SHOP_ID ?? '';
  const secretKey = config.YOOKASSA_SECRET_KEY ?? '';
  if (!/^\d{1,20}$/.test(shopId)) throw new ConfigError('Invalid setting YOOKASSA_SHOP_ID: required, digits');
  if (secretKey.length < 8) throw new ConfigError('Invalid setting YOOKASSA_SECRET_KEY: required');
  const apiUrl = config.YOOKASSA_API_URL.replace(/\/$/, '');
  if (config.production && !isSecureUrl(apiUrl))
    throw new ConfigError('Invalid setting YOOKASSA_API_URL: must be https:// in production');
  return { apiUrl, shopId, secretKey };
}

export class YooKassaPaymentsProvider implements PaymentsProvider {
  readonly id = 'yookassa';
  readonly unsignedNotifications = {
    path: YOOKASSA_WEBHOOK_PATH,
    verify: (body: unknown) => this.verifyNotification(body),
  };
  readonly #options: YooKassaOptions;
  readonly #authorization: string;

  constructor(options: YooKassaOptions) {
    this.#options = options;
    this.#authorization = `Basic ${Buffer.from(`${options.shopId}:${options.secretKey}`).toString('base64')}`;
  }

  async #request(
    method: 'GET' | 'POST',
    path: string,
    init: { body?: unknown; idempotenceKey?: string } = {},
  ): Promise<YooKassaPayment> {
    const parsed = YooKassaPayment.safeParse(await this.#json(method, path, init));
    if (!parsed.success) throw new PaymentsProviderError(`YooKassa ${method} ${path}: unexpected answer`);
    return parsed.data;
  }

  async #json(
    method: 'GET' | 'POST',
    path: string,
    init: { body?: unknown; idempotenceKey?: string } = {},
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.#options.apiUrl}${path}`, {
        method,
        headers: {
          Authorization: this.#authorization,
          Accept: 'application/json',
          ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...(init.idempotenceKey ? { 'Idempotence-Key': init.idempotenceKey } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new PaymentsProviderError(`YooKassa ${method} ${path}: ${(error as Error).name}`);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 404) throw new PaymentNotFoundError(`YooKassa ${method} ${path}: not found`);
    if (!response.ok) throw new PaymentsProviderError(`YooKassa ${method} ${path}: HTTP ${response.status}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new PaymentsProviderError(`YooKassa ${method} ${path}: not JSON`);
    }
  }

  #report(payment: YooKassaPayment): PaymentReport {
    const currency = payment.amount.currency;
    if (!isCurrencyCode(currency)) throw new PaymentsProviderError(`YooKassa: unknown currency ${currency}`);
    const amount = parseAmount(payment.amount.value, currency);
    if (!amount.ok) throw new PaymentsProviderError('YooKassa: unreadable amount');
    const orderId = payment.metadata?.order_id;
    return {
      paymentId: payment.id,
      orderId: typeof orderId === 'string' ? orderId : null,
      status: mapYooKassaStatus(payment.status),
      amount: amount.minor,
      currency: currency as CurrencyCode,
    };
  }

  async create(input: CreatePaymentInput): Promise<CreatedPayment> {
    const payment = await this.#request('POST', '/payments', {
      idempotenceKey: input.orderId,
      body: {
        amount: { value: formatAmount(input.amount, input.currency), currency: input.currency },
        capture: true,
        ...(input.method === 'sbp' ? { payment_method_data: { type: 'sbp' } } : {}),
        confirmation: { type: 'redirect', return_url: input.returnUrl },
        description: input.description.slice(0, 128),
        metadata: { order_id: input.orderId },
      },
    });
    const report = this.#report(payment);
    const url = payment.confirmation?.confirmation_url;
    if (!url || report.amount !== input.amount || report.currency !== input.currency)
      throw new PaymentsProviderError('YooKassa: the created payment does not match the order');
    return { paymentId: payment.id, url, status: report.status };
  }

  async fetch(paymentId: string): Promise<PaymentReport> {
    return this.#report(await this.#request('GET', `/payments/${encodeURIComponent(paymentId)}`));
  }

  /**
   * The payments made in [from, to), for reconciliation
   * (docs/decisions/back-office.md#the-operators-back-office).
   */
  async records(from: Date, to: Date): Promise<ProviderRecord[]> {
    const records: ProviderRecord[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({
        'created_at.gte': from.toISOString(),
        'created_at.lt': to.toISOString(),
        limit: '100',
      });
      if (cursor) query.set('cursor', cursor);
      const path = `/payments?${query}`;
      const parsed = YooKassaList.safeParse(await this.#json('GET', path));
      if (!parsed.success) throw new PaymentsProviderError('YooKassa GET /payments: unexpected answer');
      for (const payment of parsed.data.items) {
        const report = this.#report(payment);
        records.push({
          providerId: report.paymentId,
          reference: report.orderId,
          amount: report.amount,
          currency: report.currency,
          status: report.status,
          createdAt: new Date(payment.created_at ?? from),
        });
      }
      cursor = parsed.data.next_cursor;
      if (!cursor) return records;
    }
    throw new PaymentsProviderError('YooKassa GET /payments: too many pages');
  }

  /**
   * Reads a notification and answers what YooKassa itself says about its payment (fetched). A body that
   * is not a notification, or names a payment YooKassa does not have, is refused (null).
   */
  async verifyNotification(body: unknown): Promise<PaymentReport | null> {
    const parsed = YooKassaNotification.safeParse(body);
    if (!parsed.success) return null;
    try {
      return await this.fetch(parsed.data.object.id);
    } catch (error) {
      if (error instanceof PaymentNotFoundError) return null;
      throw error;
    }
  }
}
