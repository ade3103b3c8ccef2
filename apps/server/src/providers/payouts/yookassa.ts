/**
 * YooKassa payouts (the API's shape, https://yookassa.ru/developers/payouts): HTTP Basic auth with the
 * agent id (YOOKASSA_SHOP_ID) and secret key, JSON, an Idempotence-Key on every POST.
 *   POST {YOOKASSA_API_URL}/payouts        {amount: {value, currency}, payout_destination_data:
 *                                           {type: 'bank_card', card: {number}}, description, metadata}
 *   GET  {YOOKASSA_API_URL}/payouts/{id}   {id, status: pending | succeeded | canceled, cancellation_details}
 * The card number goes into the request body only, and is never logged. YooKassa payouts cannot pay a
 * bank account by its details, so `supports('bank_account')` is false. Its outcome reaches us by
 * `fetch` (the background worker asks about open payouts) or by YooKassa's notification (payout.succeeded,
 * payout.canceled) POSTed to /v2/wallet/webhooks/payouts/yookassa: unsigned, so only a hint, and the
 * payout it names is asked from the API before anything moves.
 */
import { formatAmount } from '@e-wallet/contract';
import { type Config, ConfigError } from '../../config.ts';
import { YooKassaNotification } from '../payments/yookassa.ts';
import {
  type PayoutDestination,
  PayoutRejected,
  type PayoutRequest,
  type PayoutState,
  type PayoutsProvider,
  PayoutUnavailable,
  payoutStatusOf,
} from './payouts-provider.ts';

const TIMEOUT_MS = 15_000;
export const YOOKASSA_PAYOUTS_WEBHOOK_PATH = '/v2/wallet/webhooks/payouts/yookassa';

/** What YooKassa's cancellation reasons mean to a person. */
const CANCEL_REASONS: Record<string, string> = {
  insufficient_funds: 'Недостаточно средств для выплаты у платёжного агента',
  fraud_suspected: 'Выплата отклонена из-за подозрения в мошенничестве',
  one_time_limit_exceeded: 'Превышен лимит на одну выплату',
  periodic_limit_exceeded: 'Превышен лимит выплат за период',
  rejected_by_payee: 'Выплату отклонил банк получателя',
  issuer_unavailable: 'Банк получателя недоступен',
  general_decline: 'Выплата отклонена',
};

interface YooKassaPayout {
  id: string;
  status: string;
  cancellation_details?: { party?: string; reason?: string };
}

export class YooKassaPayoutsProvider implements PayoutsProvider {
  readonly id = 'yookassa';
  readonly #baseUrl: string;
  readonly #authorization: string;

  constructor(config: Config) {
    // Options are validated at boot: a missing credential stops start-up with one clear line.
    if (!config.YOOKASSA_SHOP_ID)
      throw new ConfigError('Invalid setting YOOKASSA_SHOP_ID: required with PAYOUTS_PROVIDER=yookassa');
    if (!config.YOOKASSA_SECRET_KEY)
      throw new ConfigError('Invalid setting YOOKASSA_SECRET_KEY: required with PAYOUTS_PROVIDER=yookassa');
    this.#baseUrl = config.YOOKASSA_API_URL.replace(/\/$/, '');
    this.#authorization = `Basic ${Buffer.from(`${config.YOOKASSA_SHOP_ID}:${config.YOOKASSA_SECRET_KEY}`).toString('base64')}`;
  }

  readonly unsignedNotifications = {
    path: YOOKASSA_PAYOUTS_WEBHOOK_PATH,
    verify: async (body: unknown): Promise<PayoutState | null> => {
      const parsed = YooKassaNotification.safeParse(body);
      if (!parsed.success) return null;
      try {
        return await this.fetch(parsed.data.object.id);
      } catch (error) {
        // A payout YooKassa does not have (a forged notification) is refused; an outage is thrown.
        if (error instanceof PayoutRejected) return null;
        throw error;
      }
    },
  };

  supports(type: PayoutDestination['type']): boolean {
    return type === 'bank_card';
  }

  async payout(request: PayoutRequest): Promise<PayoutState> {
    if (request.destination.type !== 'bank_card')
      throw new PayoutRejected('YooKassa payouts cannot pay a bank account');
    const body = JSON.stringify({
      amount: { value: formatAmount(request.amount, request.currency), currency: request.currency },
      payout_destination_data: { type: 'bank_card', card: { number: request.destination.number } },
      description: request.description.slice(0, 128),
      metadata: { reference: request.reference },
    });
    const payout = await this.#call('POST', '/payouts', body, request.idempotenceKey);
    return this.#state(payout);
  }

  async fetch(providerId: string): Promise<PayoutState> {
    return this.#state(await this.#call('GET', `/payouts/${encodeURIComponent(providerId)}`));
  }

  #state(payout: YooKassaPayout): PayoutState {
    const status = payoutStatusOf(payout.status);
    const reasonCode = payout.cancellation_details?.reason ?? 'general_decline';
    return {
      providerId: payout.id,
      status,
      reason: status === 'canceled' ? (CANCEL_REASONS[reasonCode] ?? CANCEL_REASONS.general_decline!) : null,
    };
  }

  async #call(
    method: 'GET' | 'POST',
    path: string,
    body?: string,
    idempotenceKey?: string,
  ): Promise<YooKassaPayout> {
    let response: Response;
    try {
      response = await fetch(`${this.#baseUrl}${path}`, {
        method,
        headers: {
          authorization: this.#authorization,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(idempotenceKey ? { 'idempotence-key': idempotenceKey } : {}),
        },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      // The request may or may not have arrived: the outcome is unknown (never echo the body: it has the card).
      throw new PayoutUnavailable((error as Error).name);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {}
    if (response.status >= 500 || response.status === 429)
      throw new PayoutUnavailable(`HTTP ${response.status}`);
    if (response.status >= 400) {
      const description = (json as { description?: unknown } | null)?.description;
      throw new PayoutRejected(
        typeof description === 'string' ? description.slice(0, 200) : `HTTP ${response.status}`,
      );
    }
    const payout = json as YooKassaPayout | null;
    if (!payout || typeof payout.id !== 'string' || typeof payout.status !== 'string')
      throw new PayoutUnavailable('unreadable answer');
    return payout;
  }
}
