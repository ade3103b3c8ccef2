// An example shop taking payments from the wallet (docs/merchants.md): one product, a payment created with
// the merchant API, the buyer redirected to the wallet, the signed notification verified, the order 'paid'.
// No dependencies: `node server.mjs` with WALLET_URL, MERCHANT_ID, SECRET_KEY, WEBHOOK_SECRET, PORT.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const {
  WALLET_URL = 'http://127.0.0.1:8080',
  MERCHANT_ID = '',
  SECRET_KEY = '',
  PORT = '3030',
} = process.env;
const webhookSecret = process.env.WEBHOOK_SECRET ?? '';
const SHOP = `http://127.0.0.1:${PORT}`;
const PRODUCT = { name: 'Торт «Наполеон»', price: '1500.00' };
/** Orders in memory: id -> { status, paymentId, refunded }. */
const orders = new Map();

const page = (title, body) =>
  `<!doctype html><html lang="ru"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${title}</title><body style="font-family:system-ui;max-width:32rem;margin:2rem auto;padding:0 1rem">` +
  `<h1>${title}</h1>${body}</body></html>`;

async function wallet(method, path, body) {
  const answer = await fetch(`${WALLET_URL}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${MERCHANT_ID}:${SECRET_KEY}`).toString('base64')}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: body && JSON.stringify(body),
  });
  return { ok: answer.ok, body: await answer.json() };
}

/** The notification's signature: `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, at most 5 minutes old. */
function verified(raw, header) {
  const { t, v1 } = Object.fromEntries(
    String(header ?? '')
      .split(',')
      .map((part) => part.split('=')),
  );
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', webhookSecret).update(`${t}.${raw}`).digest('hex');
  return expected.length === v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
}

const read = (req) =>
  new Promise((resolve) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => resolve(raw));
  });

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', SHOP);
  const send = (status, html, headers = {}) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(html);
  };
  if (req.method === 'GET' && url.pathname === '/') {
    return send(
      200,
      page(
        'Торты Марины',
        `<p>${PRODUCT.name} — ${PRODUCT.price} ₽</p><form method="post" action="/buy">` +
          `<button type="submit">Купить</button></form>`,
      ),
    );
  }
  if (req.method === 'POST' && url.pathname === '/buy') {
    const order = randomUUID().slice(0, 8);
    const made = await wallet('POST', '/merchant/v1/payments', {
      amount: PRODUCT.price,
      currency: 'RUB',
      description: PRODUCT.name,
      order_id: order,
      return_url: `${SHOP}/orders/${order}`,
    });
    if (!made.ok) return send(502, page('Ошибка', `<p>${made.body.message}</p>`));
    orders.set(order, { status: 'waiting', paymentId: made.body.id, refunded: false });
    return send(303, '', { location: made.body.confirmation_url });
  }
  if (req.method === 'POST' && url.pathname === '/notifications') {
    const raw = await read(req);
    if (!verified(raw, req.headers.signature)) return send(400, 'bad signature');
    const { event, object } = JSON.parse(raw);
    const order = [...orders.entries()].find(([, o]) => o.paymentId === (object.payment_id ?? object.id));
    if (order && event === 'payment.succeeded') order[1].status = 'paid';
    if (order && event === 'refund.succeeded') order[1].refunded = true;
    return send(200, 'ok');
  }
  const match = /^\/orders\/([0-9a-f]{8})(\/refund)?$/.exec(url.pathname);
  const order = match && orders.get(match[1]);
  if (order && req.method === 'POST' && match[2] && order.status === 'paid') {
    await wallet('POST', '/merchant/v1/refunds', { payment_id: order.paymentId, amount: '750.00' });
    return send(303, '', { location: `/orders/${match[1]}` });
  }
  if (order && req.method === 'GET' && !match[2]) {
    const paid = order.status === 'paid';
    return send(
      200,
      page(
        `Заказ ${match[1]}`,
        `<p data-status="${order.status}">${paid ? 'Оплачен' : 'Ждём оплату'}</p>` +
          (order.refunded ? '<p data-refund="done">Половина суммы возвращена</p>' : '') +
          (paid && !order.refunded
            ? `<form method="post" action="/orders/${match[1]}/refund"><button type="submit">Вернуть половину</button></form>`
            : ''),
      ),
    );
  }
  return send(404, page('Не найдено', ''));
});

server.listen(Number(PORT), '127.0.0.1', () => process.stdout.write(`shop on ${SHOP}\n`));
