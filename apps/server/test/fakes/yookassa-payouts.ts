/**
 * A local fake of YooKassa's payouts API (https://yookassa.ru/developers/payouts), just enough of its
 * shape to test our adapter against real HTTP: Basic auth with the agent id and secret key, an
 * Idempotence-Key on every POST (a repeat answers the first payout), JSON bodies, errors as
 * {type: 'error', code, description}.
 *   POST /payouts        -> {id: 'po-...', status: 'pending', amount, payout_destination, metadata, test}
 *   GET  /payouts/{id}   -> the payout, with cancellation_details once canceled
 *   GET  /sbp_banks      -> {type: 'list', items: [{bank_id, name, bic}]} (СБП's participants)
 *   POST /personal_data  -> {id: 'pd-...', type: 'sbp_payout_recipient', status: 'waiting_for_operation'}
 * An СБП payout ({type: 'sbp', phone, bank_id}) naming personal data whose last name is not the phone's
 * owner's (`owners`) is canceled at once with `recipient_check_failed`, as YooKassa's bank check does.
 * Tests settle payouts (`settle`), make the next request fail (`failNext`), and read what was sent.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePayout {
  id: string;
  status: 'pending' | 'succeeded' | 'canceled';
  amount: { value: string; currency: string };
  payout_destination: {
    type: string;
    card?: { first6: string; last4: string; card_type: string };
    phone?: string;
    bank_id?: string;
  };
  description?: string;
  metadata?: Record<string, string>;
  created_at: string;
  test: boolean;
  cancellation_details?: { party: string; reason: string };
}

export interface FakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotenceKey: string | undefined;
  body: unknown;
}

export class FakeYooKassaPayouts {
  readonly agentId = '505050';
  readonly secretKey = 'test_fake_secret_key_0123456789';
  readonly payouts = new Map<string, FakePayout>();
  readonly requests: FakeRequest[] = [];
  readonly banks = [
    { bank_id: '100000000111', name: 'Сбербанк', bic: '044525225' },
    { bank_id: '100000000004', name: 'Т-Банк', bic: '044525974' },
  ];
  /** The account owner's last name by phone (digits), for the recipient check. */
  readonly owners = new Map<string, string>();
  readonly personalData = new Map<string, { last_name: string; first_name: string }>();
  #byKey = new Map<string, string>();
  #failures: { status: number; body: unknown }[] = [];
  #server: Server | null = null;
  url = '';

  async start(): Promise<string> {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v3`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** The next request answers this status (and body) instead of being handled. */
  failNext(status: number, body: unknown = { type: 'error', code: 'internal_server_error' }): void {
    this.#failures.push({ status, body });
  }

  settle(id: string, status: 'succeeded' | 'canceled', reason = 'general_decline'): void {
    const payout = this.payouts.get(id);
    if (!payout) throw new Error(`no fake payout ${id}`);
    payout.status = status;
    if (status === 'canceled') payout.cancellation_details = { party: 'payout_network', reason };
  }

  byReference(reference: string): FakePayout | undefined {
    return [...this.payouts.values()].find((p) => p.metadata?.reference === reference);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {}
    const path = (req.url ?? '').replace(/^\/v3/, '');
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    this.requests.push({
      method: req.method ?? '',
      path,
      authorization: header('authorization'),
      idempotenceKey: header('idempotence-key'),
      body,
    });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    };
    const failure = this.#failures.shift();
    if (failure) return send(failure.status, failure.body);
    const expected = `Basic ${Buffer.from(`${this.agentId}:${this.secretKey}`).toString('base64')}`;
    if (header('authorization') !== expected)
      return send(401, { type: 'error', code: 'invalid_credentials', description: 'Authentication error' });

    if (req.method === 'GET' && path === '/sbp_banks') return send(200, { type: 'list', items: this.banks });
    if (req.method === 'POST' && path === '/personal_data') {
      const data = body as { type?: string; last_name?: string; first_name?: string } | null;
      if (data?.type !== 'sbp_payout_recipient' || !data.last_name || !data.first_name)
        return send(400, { type: 'error', code: 'invalid_request', description: 'Invalid personal data' });
      const id = `pd-${randomUUID()}`;
      this.personalData.set(id, { last_name: data.last_name, first_name: data.first_name });
      return send(200, {
        id,
        type: data.type,
        status: 'waiting_for_operation',
        created_at: new Date().toISOString(),
      });
    }
    if (req.method === 'POST' && path === '/payouts') {
      const key = header('idempotence-key');
      if (!key)
        return send(400, {
          type: 'error',
          code: 'invalid_request',
          description: 'Idempotence-Key is required',
        });
      const first = this.#byKey.get(key);
      if (first) return send(200, this.payouts.get(first));
      const request = body as {
        amount?: { value?: string; currency?: string };
        payout_destination_data?: {
          type?: string;
          card?: { number?: string };
          phone?: string;
          bank_id?: string;
        };
        personal_data?: { id?: string }[];
        description?: string;
        metadata?: Record<string, string>;
      } | null;
      const sbp = request?.payout_destination_data?.type === 'sbp' ? request.payout_destination_data : null;
      if (sbp) {
        const { phone = '', bank_id = '' } = sbp;
        const personal = request?.personal_data?.[0]?.id;
        if (
          !/^\d+\.\d{2}$/.test(request?.amount?.value ?? '') ||
          !/^7\d{10}$/.test(phone) ||
          !this.banks.some((bank) => bank.bank_id === bank_id) ||
          (personal !== undefined && !this.personalData.has(personal))
        )
          return send(400, { type: 'error', code: 'invalid_request', description: 'Invalid payout data' });
        const owner = this.owners.get(phone);
        const checkFails =
          personal !== undefined &&
          owner !== undefined &&
          this.personalData.get(personal)!.last_name !== owner;
        const payout: FakePayout = {
          id: `po-${randomUUID()}`,
          status: checkFails ? 'canceled' : 'pending',
          amount: { value: request!.amount!.value!, currency: request!.amount!.currency ?? 'RUB' },
          payout_destination: { type: 'sbp', phone, bank_id },
          description: request!.description,
          metadata: request!.metadata,
          created_at: new Date().toISOString(),
          test: true,
          ...(checkFails
            ? { cancellation_details: { party: 'sbp_network', reason: 'recipient_check_failed' } }
            : {}),
        };
        this.payouts.set(payout.id, payout);
        this.#byKey.set(key, payout.id);
        return send(200, payout);
      }
      const number = request?.payout_destination_data?.card?.number ?? '';
      if (
        !request?.amount?.value ||
        !/^\d+\.\d{2}$/.test(request.amount.value) ||
        request.payout_destination_data?.type !== 'bank_card' ||
        !/^\d{16}$/.test(number)
      ) {
        return send(400, { type: 'error', code: 'invalid_request', description: 'Invalid payout data' });
      }
      const payout: FakePayout = {
        id: `po-${randomUUID()}`,
        status: 'pending',
        amount: { value: request.amount.value, currency: request.amount.currency ?? 'RUB' },
        payout_destination: {
          type: 'bank_card',
          card: { first6: number.slice(0, 6), last4: number.slice(-4), card_type: 'Visa' },
        },
        description: request.description,
        metadata: request.metadata,
        created_at: new Date().toISOString(),
        test: true,
      };
      this.payouts.set(payout.id, payout);
      this.#byKey.set(key, payout.id);
      return send(200, payout);
    }
    const match = /^\/payouts\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && match) {
      const payout = this.payouts.get(decodeURIComponent(match[1]!));
      return payout
        ? send(200, payout)
        : send(404, { type: 'error', code: 'not_found', description: 'Payout not found' });
    }
    return send(404, { type: 'error', code: 'not_found' });
  }
}

/** The server's settings that make the fake its payouts provider (the YooKassa payouts and СБП tests). */
export function yooKassaPayoutsEnv(fake: FakeYooKassaPayouts): Record<string, string> {
  return {
    PAYOUTS_PROVIDER: 'yookassa',
    YOOKASSA_API_URL: fake.url,
    YOOKASSA_SHOP_ID: fake.agentId,
    YOOKASSA_SECRET_KEY: fake.secretKey,
  };
}
