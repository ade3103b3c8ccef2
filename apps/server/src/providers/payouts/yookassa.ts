/**
 * YooKassa payouts (the API's shape, https://yookassa.ru/developers/payouts): HTTP Basic auth with the
 * agent id (YOOKASSA_SHOP_ID) and secret key, JSON, an Idempotence-Key on every POST.
 *   POST {YOOKASSA_API_URL}/payouts        {amount: {value, currency}, payout_destination_data:
 *                                           {type: 'bank_card', card: {number}}, description, metadata}
 *   GET  {YOOKASSA_API_URL}/payouts/{id}   {id, status: pending | succeeded | canceled, cancellation_details}
 *   GET  {YOOKASSA_API_URL}/sbp_banks      {type: 'list', items: [{bank_id, name, bic}]}: СБП's participants
 *   POST {YOOKASSA_API_URL}/personal_data  {type: 'sbp_payout_recipient', last_name, first_name, middle_name}:
 *                                           the recipient check of an СБП payout (its id goes in `personal_data`)
 * An СБП payout is `payout_destination_data: {type: 'sbp', phone, bank_id}` (the phone as digits, no '+');
 * a failed recipient check cancels it with `recipient_check_failed` (docs/decisions/sbp.md).
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
  REASON_RECIPIENT_CHECK_FAILED,
  type SbpBank,
  type SbpRecipient,
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
  recipient_check_failed: REASON_RECIPIENT_CHECK_FAILED,
  recipient_not_found: 'Получатель не найден в выбранном банке. Деньги возвращены на счёт',
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
    return type === 'bank_card' || type === 'sbp';
  }

  async sbpBanks(): Promise<SbpBank[]> {
    const list = (await this.#call('GET', '/sbp_banks')) as { items?: unknown } | null;
    if (!Array.isArray(list?.items)) throw new PayoutUnavailable('unreadable participants list');
    return list.items.flatMap((item: { bank_id?: unknown; name?: unknown }) =>
      typeof item?.bank_id === 'string' && /^\d{12}$/.test(item.bank_id) && typeof item.name === 'string'
        ? [{ id: item.bank_id, name: item.name.slice(0, 200) }]
        : [],
    );
  }

  /** YooKassa does not tell a recipient's name before the payout. */
  async sbpRecipientName(): Promise<string | null> {
    return null;
  }

  async payout(request: PayoutRequest): Promise<PayoutState> {
    const { destination } = request;
    if (destination.type === 'bank_account')
      throw new PayoutRejected('YooKassa payouts cannot pay a bank account');
    const personalData =
      destination.type === 'sbp' && destination.recipient
        ? [{ id: await this.#personalData(destination.recipient, `${request.idempotenceKey}:recipient`) }]
        : undefined;
    const body = JSON.stringify({
      amount: { value: formatAmount(request.amount, request.currency), currency: request.currency },
      payout_destination_data:
        destination.type === 'sbp'
          ? { type: 'sbp', phone: destination.phone.replace(/^\+/, ''), bank_id: destination.bankId }
          : { type: 'bank_card', card: { number: destination.number } },
      ...(personalData ? { personal_data: personalData } : {}),
      description: request.description.slice(0, 128),
      metadata: { reference: request.reference },
    });
    return this.#state(this.#payoutOf(await this.#call('POST', '/payouts', body, request.idempotenceKey)));
  }

  /** The recipient check's personal data; its id is what the payout names (never the name itself). */
  async #personalData(recipient: SbpRecipient, idempotenceKey: string): Promise<string> {
    const body = JSON.stringify({
      type: 'sbp_payout_recipient',
      last_name: recipient.lastName,
      first_name: recipient.firstName,
      ...(recipient.middleName ? { middle_name: recipient.middleName } : {}),
    });
    const answer = (await this.#call('POST', '/personal_data', body, idempotenceKey)) as {
      id?: unknown;
    } | null;
    if (typeof answer?.id !== 'string') throw new PayoutUnavailable('unreadable personal data');
    return answer.id;
  }

  async fetch(providerId: string): Promise<PayoutState> {
    return this.#state(this.#payoutOf(await this.#call('GET', `/payouts/${encodeURIComponent(providerId)}`)));
  }

  #payoutOf(json: unknown): YooKassaPayout {
    const payout = json as YooKassaPayout | null;
    if (!payout || typeof payout.id !== 'string' || typeof payout.status !== 'string')
      throw new PayoutUnavailable('unreadable answer');
    return payout;
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
  ): Promise<unknown> {
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
    if (json === null) throw new PayoutUnavailable('unreadable answer');
    return json;
  }
}
