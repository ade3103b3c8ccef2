/**
 * SMS.ru's HTTP API (https://sms.ru/api): POST /sms/send with api_id, to, msg and json=1; the
 * answer names each number's status_code (100: accepted, with its sms_id). POST /sms/status with
 * api_id, sms_id and json=1 answers a text's status_code: 100-102 on its way, 103 delivered,
 * 110 read, 104-108 and 150 failed. 220 is the service's own "temporarily unavailable": retried.
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

interface SmsRuStatus {
  status?: string;
  status_code?: number;
  status_text?: string;
  sms_id?: string;
}

const DELIVERED = new Set([103, 110]);
const FAILED = new Set([104, 105, 106, 107, 108, 150]);
const RETRY = new Set([220]);

export function smsRuDeliveryStatus(code: number | undefined): GatewayAnswer {
  return deliveryAnswer('smsru', code, { delivered: DELIVERED, failed: FAILED });
}

export class SmsRuProvider extends HttpSmsGateway {
  readonly id = 'smsru';
  readonly #apiUrl: string;
  readonly #apiId: string;
  readonly #sender: string | undefined;

  constructor(
    options: { apiUrl: string; apiId: string; sender?: string },
    db: Db,
    clock: Clock,
    timing: GatewayTiming = DEFAULT_TIMING,
  ) {
    super(db, clock, timing);
    this.#apiUrl = options.apiUrl.replace(/\/$/, '');
    this.#apiId = options.apiId;
    this.#sender = options.sender;
  }

  protected async submit(phone: string, text: string): Promise<GatewayAnswer> {
    const to = phone.replace(/^\+/, '');
    const form: Record<string, string> = { api_id: this.#apiId, to, msg: text, json: '1' };
    if (this.#sender) form.from = this.#sender;
    const answer = (await postForm(`${this.#apiUrl}/sms/send`, form)) as SmsRuStatus & {
      sms?: Record<string, SmsRuStatus>;
    };
    if (answer.status !== 'OK') {
      const code = answer.status_code;
      const providerStatus = `smsru:${code ?? 'none'}`;
      return code !== undefined && RETRY.has(code)
        ? { kind: 'retry', providerStatus }
        : { kind: 'final', status: 'failed', providerStatus };
    }
    const one = answer.sms?.[to];
    if (one?.status === 'OK' && one.sms_id)
      return { kind: 'accepted', messageId: one.sms_id, providerStatus: `smsru:${one.status_code ?? 100}` };
    return { kind: 'final', status: 'failed', providerStatus: `smsru:${one?.status_code ?? 'none'}` };
  }

  protected async status(messageId: string): Promise<GatewayAnswer> {
    const answer = (await postForm(`${this.#apiUrl}/sms/status`, {
      api_id: this.#apiId,
      sms_id: messageId,
      json: '1',
    })) as SmsRuStatus & { sms?: Record<string, SmsRuStatus> };
    return smsRuDeliveryStatus(answer.sms?.[messageId]?.status_code);
  }
}
