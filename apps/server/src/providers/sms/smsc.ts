/**
 * SMSC.ru's HTTP API (https://smsc.ru/api/http/): POST /sys/send.php with login, psw, phones,
 * mes, charset=utf-8 and fmt=3 (JSON) answers {id, cnt} or {error, error_code}; error_code 9 is
 * "too many requests at once" and is retried. POST /sys/status.php with login, psw, phone, id
 * and fmt=3 answers {status}: -1 and 0 on their way, 1 delivered, 2 read, 3 expired and 20-25 failed.
 */
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import {
  DEFAULT_TIMING,
  deliveryAnswer,
  type GatewayAnswer,
  type GatewayTiming,
  HttpSmsGateway,
  postForm,
} from './gateway.ts';

interface SmscAnswer {
  id?: number | string;
  cnt?: number;
  status?: number;
  error?: string;
  error_code?: number;
}

const DELIVERED = new Set([1, 2]);
const FAILED = new Set([3, 20, 22, 23, 24, 25]);

export function smscDeliveryStatus(status: number | undefined): GatewayAnswer {
  return deliveryAnswer('smsc', status, { delivered: DELIVERED, failed: FAILED });
}

export class SmscProvider extends HttpSmsGateway {
  readonly id = 'smsc';
  readonly #apiUrl: string;
  readonly #login: string;
  readonly #password: string;
  readonly #sender: string | undefined;

  constructor(
    options: { apiUrl: string; login: string; password: string; sender?: string },
    db: Db,
    clock: Clock,
    timing: GatewayTiming = DEFAULT_TIMING,
  ) {
    super(db, clock, timing);
    this.#apiUrl = options.apiUrl.replace(/\/$/, '');
    this.#login = options.login;
    this.#password = options.password;
    this.#sender = options.sender;
  }

  protected async submit(phone: string, text: string): Promise<GatewayAnswer> {
    const form: Record<string, string> = {
      login: this.#login,
      psw: this.#password,
      phones: phone.replace(/^\+/, ''),
      mes: text,
      charset: 'utf-8',
      fmt: '3',
    };
    if (this.#sender) form.sender = this.#sender;
    const answer = (await postForm(`${this.#apiUrl}/sys/send.php`, form)) as SmscAnswer;
    if (answer.error_code !== undefined || answer.id === undefined) {
      const providerStatus = `smsc:error:${answer.error_code ?? 'none'}`;
      return answer.error_code === 9
        ? { kind: 'retry', providerStatus }
        : { kind: 'final', status: 'failed', providerStatus };
    }
    return { kind: 'accepted', messageId: String(answer.id), providerStatus: 'smsc:accepted' };
  }

  protected async status(messageId: string, phone: string): Promise<GatewayAnswer> {
    const answer = (await postForm(`${this.#apiUrl}/sys/status.php`, {
      login: this.#login,
      psw: this.#password,
      phone: phone.replace(/^\+/, ''),
      id: messageId,
      fmt: '3',
    })) as SmscAnswer;
    return smscDeliveryStatus(answer.status);
  }
}
