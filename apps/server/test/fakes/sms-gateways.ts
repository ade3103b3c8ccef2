/**
 * Local fakes of two SMS gateways' HTTP APIs, enough for the adapters' tests and the production
 * start: they listen on 127.0.0.1 (a given or random port), check the credentials the real APIs
 * check, read the form fields the real APIs read, and keep every text in memory with a status
 * that a test moves on.
 *   SMS.ru: POST /sms/send (api_id, to, msg, json=1), POST /sms/status (api_id, sms_id, json=1)
 *   SMSC:   POST /sys/send.php (login, psw, phones, mes, fmt=3), POST /sys/status.php (login, psw, phone, id, fmt=3)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeText {
  id: string;
  phone: string;
  text: string;
  /** The gateway's own delivery status code (SMS.ru: 100..110; SMSC: -1..25). */
  status: number;
}

export interface FakeGateway {
  url: string;
  texts: FakeText[];
  /** Every request as the gateway read it (path and form fields). */
  requests: Array<{ path: string; form: Record<string, string> }>;
  /** The next n requests are dropped without an answer (a network error), or answered with `status`. */
  failNext(n: number, how?: 'drop' | number): void;
  /** The status the gateway reports for texts from now on (and for those already sent). */
  setDeliveryStatus(status: number): void;
  /** The next send is refused with the gateway's own error code. */
  refuseNext(code: number): void;
  close(): Promise<void>;
}

type Handler = (path: string, form: Record<string, string>, state: GatewayState) => unknown;

interface GatewayState {
  texts: FakeText[];
  deliveryStatus: number;
  refuse: number | null;
  nextId: number;
}

async function startFake(handler: Handler, initialStatus: number, port = 0): Promise<FakeGateway> {
  const state: GatewayState = { texts: [], deliveryStatus: initialStatus, refuse: null, nextId: 1 };
  const requests: FakeGateway['requests'] = [];
  let failing = 0;
  let failHow: 'drop' | number = 'drop';
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const [path = '', query = ''] = (req.url ?? '').split('?');
    const body = Buffer.concat(chunks).toString('utf8');
    const form = Object.fromEntries(new URLSearchParams(`${query}&${body}`));
    requests.push({ path, form });
    if (failing > 0) {
      failing -= 1;
      if (failHow === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(failHow, { 'content-type': 'text/plain' });
      res.end('unavailable');
      return;
    }
    const answer = handler(path, form, state);
    if (answer === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    texts: state.texts,
    requests,
    failNext(n, how = 'drop') {
      failing = n;
      failHow = how;
    },
    setDeliveryStatus(status) {
      state.deliveryStatus = status;
      for (const text of state.texts) text.status = status;
    },
    refuseNext(code) {
      state.refuse = code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** SMS.ru: answers as documented at https://sms.ru/api/send and /api/status (json=1). */
export function startFakeSmsRu(apiId: string, port = 0): Promise<FakeGateway> {
  return startFake(
    (path, form, state) => {
      if (path !== '/sms/send' && path !== '/sms/status') return undefined;
      if (form.json !== '1') return undefined;
      if (form.api_id !== apiId)
        return { status: 'ERROR', status_code: 200, status_text: 'Неправильный api_id' };
      if (path === '/sms/send') {
        if (!form.to || !form.msg)
          return { status: 'ERROR', status_code: 202, status_text: 'Неправильно указан получатель' };
        if (state.refuse !== null) {
          const code = state.refuse;
          state.refuse = null;
          if (code === 220 || code === 201)
            return { status: 'ERROR', status_code: code, status_text: 'refused' };
          return {
            status: 'OK',
            status_code: 100,
            sms: { [form.to]: { status: 'ERROR', status_code: code } },
            balance: 1,
          };
        }
        const id = `000000-${String(state.nextId++).padStart(8, '0')}`;
        state.texts.push({ id, phone: form.to, text: form.msg, status: state.deliveryStatus });
        return {
          status: 'OK',
          status_code: 100,
          sms: { [form.to]: { status: 'OK', status_code: 100, sms_id: id } },
          balance: 100,
        };
      }
      const text = state.texts.find((t) => t.id === form.sms_id);
      return {
        status: 'OK',
        status_code: 100,
        sms: {
          [form.sms_id ?? '']: text
            ? { status: 'OK', status_code: text.status }
            : { status: 'ERROR', status_code: -1 },
        },
      };
    },
    100,
    port,
  );
}

/** SMSC: answers as documented at https://smsc.ru/api/http/ (fmt=3, JSON). */
export function startFakeSmsc(login: string, password: string, port = 0): Promise<FakeGateway> {
  return startFake(
    (path, form, state) => {
      if (path !== '/sys/send.php' && path !== '/sys/status.php') return undefined;
      if (form.fmt !== '3') return undefined;
      if (form.login !== login || form.psw !== password) return { error: 'authorise error', error_code: 2 };
      if (path === '/sys/send.php') {
        if (!form.phones || !form.mes) return { error: 'parameters error', error_code: 1 };
        if (state.refuse !== null) {
          const code = state.refuse;
          state.refuse = null;
          return { error: 'refused', error_code: code };
        }
        const id = String(state.nextId++);
        state.texts.push({ id, phone: form.phones, text: form.mes, status: state.deliveryStatus });
        return { id: Number(id), cnt: 1 };
      }
      const text = state.texts.find((t) => t.id === form.id && t.phone === form.phone);
      return text
        ? { status: text.status, last_date: '24.11.2026 21:00:00', err: 0 }
        : { error: 'not found', error_code: 9 };
    },
    -1,
    port,
  );
}
