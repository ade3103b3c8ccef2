/**
 * A local fake of YooKassa's payments API (v3), enough for the adapter's tests: it listens on
 * 127.0.0.1 on a random port and checks what the real API checks (Basic auth shopId:secretKey,
 * an Idempotence-Key on POST, the amount's shape), keeps payments in memory, and lets a test move a
 * payment on (succeed, cancel) and build the notifications YooKassa would send.
 *   POST /v3/payments        same Idempotence-Key -> the same payment; `payment_method_data: {type: 'sbp'}` for СБП
 *   GET  /v3/payments/{id}   404 for an unknown id
 *   GET  /v3/payments        the list, by created_at.gte / created_at.lt, `limit` a page, `cursor` the next
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: { value: string; currency: string };
  description?: string;
  confirmation: { type: 'redirect'; return_url: string; confirmation_url: string };
  metadata: Record<string, string>;
  created_at: string;
  cancellation_details?: { party: string; reason: string };
  payment_method?: { type: string; id: string };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeYooKassa {
  /** The API base url to give as YOOKASSA_API_URL (ends in /v3). */
  url: string;
  requests: RecordedRequest[];
  payments: Map<string, FakePayment>;
  /** The next n requests answer this HTTP status (an outage). */
  failNext(n: number, status?: number): void;
  succeed(id: string): void;
  cancel(id: string): void;
  notification(
    id: string,
    event: 'payment.succeeded' | 'payment.canceled' | 'payment.waiting_for_capture',
  ): object;
  close(): Promise<void>;
}

export async function startFakeYooKassa(credentials: {
  shopId: string;
  secretKey: string;
}): Promise<FakeYooKassa> {
  const payments = new Map<string, FakePayment>();
  const byKey = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  let failing = 0;
  let failStatus = 500;
  const expectedAuth = `Basic ${Buffer.from(`${credentials.shopId}:${credentials.secretKey}`).toString('base64')}`;

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {}
    const path = (req.url ?? '').split('?')[0] ?? '';
    requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    const error = (status: number, code: string, description: string) =>
      send(status, { type: 'error', id: randomUUID(), code, description });

    if (failing > 0) {
      failing -= 1;
      return error(failStatus, 'internal_server_error', 'Internal server error');
    }
    if (req.headers.authorization !== expectedAuth)
      return error(401, 'invalid_credentials', 'Bad credentials');

    if (req.method === 'POST' && path === '/v3/payments') {
      const key = req.headers['idempotence-key'];
      if (typeof key !== 'string' || key.length === 0 || key.length > 64)
        return error(400, 'invalid_request', 'Idempotence-Key header is required');
      const existing = byKey.get(key);
      if (existing) return send(200, payments.get(existing));
      const value = body?.amount?.value;
      if (typeof value !== 'string' || !/^\d+\.\d{2}$/.test(value) || body?.amount?.currency !== 'RUB')
        return error(400, 'invalid_request', 'amount is invalid');
      if (body?.confirmation?.type !== 'redirect' || typeof body?.confirmation?.return_url !== 'string')
        return error(400, 'invalid_request', 'confirmation is invalid');
      // A payment by СБП names its method; the payer's page then shows a QR or opens the bank app.
      const method = body?.payment_method_data?.type;
      if (method !== undefined && method !== 'sbp' && method !== 'bank_card')
        return error(400, 'invalid_request', 'payment_method_data is invalid');
      const id = `2${randomUUID().slice(1)}`;
      const payment: FakePayment = {
        id,
        status: 'pending',
        paid: false,
        amount: { value, currency: 'RUB' },
        description: body.description,
        confirmation: {
          type: 'redirect',
          return_url: body.confirmation.return_url,
          confirmation_url: `https://yoomoney.example/checkout/payments/v2/contract?orderId=${id}`,
        },
        metadata: body.metadata ?? {},
        created_at: new Date().toISOString(),
        ...(method ? { payment_method: { type: method, id } } : {}),
      };
      payments.set(id, payment);
      byKey.set(key, id);
      return send(200, payment);
    }
    if (req.method === 'GET' && path === '/v3/payments') {
      const query = new URL(req.url ?? '', 'http://fake').searchParams;
      const from = query.get('created_at.gte') ?? '';
      const to = query.get('created_at.lt') ?? '\uffff';
      const limit = Number(query.get('limit') ?? 10);
      const start = Number(query.get('cursor') ?? 0);
      const all = [...payments.values()].filter((p) => p.created_at >= from && p.created_at < to);
      const items = all.slice(start, start + limit);
      return send(200, {
        type: 'list',
        items,
        ...(start + limit < all.length ? { next_cursor: String(start + limit) } : {}),
      });
    }
    const match = /^\/v3\/payments\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && match) {
      const payment = payments.get(decodeURIComponent(match[1]!));
      return payment ? send(200, payment) : error(404, 'not_found', 'Payment not found');
    }
    return error(404, 'not_found', 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const get = (id: string) => {
    const payment = payments.get(id);
    if (!payment) throw new Error(`fake YooKassa has no payment ${id}`);
    return payment;
  };
  return {
    url: `http://127.0.0.1:${port}/v3`,
    requests,
    payments,
    failNext(n, status = 500) {
      failing = n;
      failStatus = status;
    },
    succeed(id) {
      Object.assign(get(id), { status: 'succeeded', paid: true });
    },
    cancel(id) {
      Object.assign(get(id), {
        status: 'canceled',
        cancellation_details: { party: 'payment_network', reason: 'card_expired' },
      });
    },
    notification(id, event) {
      return { type: 'notification', event, object: payments.get(id) ?? { id, status: 'succeeded' } };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
