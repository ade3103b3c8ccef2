/**
 * Payment requests, templates, recent recipients and 'Повторить' through the API: a request by phone
 * and by link is paid once (concurrent pays included), declined, cancelled, expires after 7 days, and
 * splits among several phones; resolving a phone counts under the recipient lookup's one limit.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RECIPIENT_LOOKUPS } from '../src/modules/transfer/service.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer, uniquePhone } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { balance, key, type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`payment requests (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  const ask = (who: Person, body: Record<string, unknown>) =>
    server.call('POST', '/v2/wallet/request', { token: who.token, body: { currency_code: 'RUB', ...body } });
  const payIt = (who: Person, id: string, idempotencyKey?: string, pin = PIN) =>
    server.call('POST', `/v2/wallet/request/${id}/pay`, {
      token: who.token,
      body: { pin },
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });
  const list = async (who: Person, direction: 'incoming' | 'outgoing') => {
    const { status, body } = await server.call('GET', `/v2/wallet/request?direction=${direction}`, {
      token: who.token,
    });
    expect(status).toBe(200);
    return body.results as { id: string; status: string; counterparty: string | null; amount: string }[];
  };
  const tokenOf = (url: string) => url.split('/pay/r/')[1]!;
  const transfersOf = async (id: string) => {
    const { rows } = await server.ctx.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM ledger_transfers WHERE reference_type = 'payment_request' AND reference_id = $1`,
      [id],
    );
    return Number(rows[0]!.n);
  };

  it('a request by phone shows on both sides, is paid once, and a repeated key answers the first answer', async () => {
    const asker = await person(server);
    const payer = await person(server, { rub: rub(1000) });
    const made = await ask(asker, { amount: '150.00', phone: payer.phone, comment: 'Обед' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.status).toBe('pending');
    expect(made.body.url).toMatch(/\/pay\/r\/[A-Za-z0-9_-]{20,}$/);
    expect(Date.parse(made.body.expires_at) - clock.now().getTime()).toBe(7 * 24 * 3600_000);

    const incoming = await list(payer, 'incoming');
    expect(incoming[0]).toMatchObject({
      id: made.body.id,
      status: 'pending',
      counterparty: 'Иван П.',
      amount: '150.00',
    });
    expect((await list(asker, 'outgoing'))[0]).toMatchObject({ id: made.body.id, counterparty: 'Иван П.' });
    const notices = await server.call('GET', '/v2/wallet/user/notification', { token: payer.token });
    expect(notices.body.results.map((n: { message: string }) => n.message.replace(/\s/g, ' '))).toContain(
      'Иван П. просит перевести 150,00 ₽',
    );

    const k = key();
    const paid = await payIt(payer, made.body.id, k);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.receipt).toMatchObject({ amount: '150.00', counterparty: 'Иван П.' });
    expect(await balance(server, payer)).toBe('850.00');
    expect(await balance(server, asker)).toBe('150.00');
    const again = await payIt(payer, made.body.id, k);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paid.body);
    const other = await payIt(payer, made.body.id, key());
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('REQUEST_PAID');
    expect(await transfersOf(made.body.id)).toBe(1);
    expect((await list(asker, 'outgoing'))[0]!.status).toBe('paid');
  });

  it('a link request is paid by whoever opens it, once, however many pay at once', async () => {
    const asker = await person(server);
    const payers = await Promise.all([1, 2, 3, 4].map(() => person(server, { rub: rub(500) })));
    const made = await ask(asker, { amount: '100.00' });
    expect(made.status).toBe(200);
    const seen = await server.call('GET', `/v2/wallet/request/link/${tokenOf(made.body.url)}`, {
      token: payers[0]!.token,
    });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      id: made.body.id,
      status: 'pending',
      counterparty: 'Иван П.',
      direction: 'incoming',
    });
    const unknown = await server.call('GET', `/v2/wallet/request/link/${'x'.repeat(32)}`, {
      token: payers[0]!.token,
    });
    expect(unknown.status).toBe(404);

    const answers = await Promise.all([...payers, ...payers].map((who) => payIt(who, made.body.id, key())));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect(refused.body.code).toBe('REQUEST_PAID');
    expect(await transfersOf(made.body.id)).toBe(1);
    expect(await balance(server, asker)).toBe('100.00');
    const own = await payIt(asker, made.body.id, key());
    expect(own.status).toBe(400);
    expect(own.body.code).toBe('REQUEST_OWN');
  });

  it('a wrong PIN, a frozen wallet or too little money pay nothing and leave the request pending', async () => {
    const asker = await person(server);
    const poor = await person(server, { rub: rub(10) });
    const made = await ask(asker, { amount: '50.00', phone: poor.phone });
    const wrong = await payIt(poor, made.body.id, key(), '0000');
    expect(wrong.body.code).toBe('PIN_INVALID');
    const short = await payIt(poor, made.body.id, key());
    expect(short.status).toBe(409);
    expect(short.body.code).toBe('INSUFFICIENT_FUNDS');
    await server.call('POST', '/v2/wallet/freeze', { token: poor.token, body: {} });
    const frozen = await payIt(poor, made.body.id, key());
    expect(frozen.body.code).toBe('WALLET_FROZEN');
    expect((await list(asker, 'outgoing'))[0]!.status).toBe('pending');
    expect(await transfersOf(made.body.id)).toBe(0);
  });

  it('declined by the payer, cancelled by the requester: neither can be paid, and others cannot close them', async () => {
    const asker = await person(server);
    const payer = await person(server, { rub: rub(500) });
    const first = await ask(asker, { amount: '10.00', phone: payer.phone });
    expect(
      (await server.call('POST', `/v2/wallet/request/${first.body.id}/cancel`, { token: payer.token }))
        .status,
    ).toBe(404);
    expect(
      (await server.call('POST', `/v2/wallet/request/${first.body.id}/decline`, { token: asker.token }))
        .status,
    ).toBe(404);
    const declined = await server.call('POST', `/v2/wallet/request/${first.body.id}/decline`, {
      token: payer.token,
    });
    expect(declined.status).toBe(200);
    expect((await payIt(payer, first.body.id, key())).body.code).toBe('REQUEST_CLOSED');
    expect((await list(asker, 'outgoing'))[0]!.status).toBe('declined');
    const told = await server.call('GET', '/v2/wallet/user/notification', {
      token: asker.token,
      headers: { 'accept-language': 'en' },
    });
    expect(told.body.results.map((n: { message: string }) => n.message.replace(/\s/g, ' '))).toContain(
      'Ivan P. declined your request for ₽10.00',
    );

    const second = await ask(asker, { amount: '10.00', phone: payer.phone });
    expect(
      (await server.call('POST', `/v2/wallet/request/${second.body.id}/cancel`, { token: asker.token }))
        .status,
    ).toBe(200);
    expect((await payIt(payer, second.body.id, key())).body.code).toBe('REQUEST_CLOSED');
    const twice = await server.call('POST', `/v2/wallet/request/${second.body.id}/cancel`, {
      token: asker.token,
    });
    expect(twice.body.code).toBe('REQUEST_CLOSED');
    expect(await balance(server, payer)).toBe('500.00');
  });

  it('a request expires after 7 days', async () => {
    const asker = await person(server);
    const payer = await person(server, { rub: rub(100) });
    const made = await ask(asker, { amount: '10.00', phone: payer.phone });
    // Halfway, both use their sessions (a session unused for 7 days ends).
    clock.advance(3.5 * 24 * 3600_000);
    expect((await list(payer, 'incoming'))[0]!.status).toBe('pending');
    expect((await list(asker, 'outgoing'))[0]!.status).toBe('pending');
    clock.advance(3.5 * 24 * 3600_000);
    expect((await list(payer, 'incoming'))[0]!.status).toBe('expired');
    const late = await payIt(payer, made.body.id, key());
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('REQUEST_CLOSED');
    expect(await transfersOf(made.body.id)).toBe(0);
  });

  it('a split shares the amount among phones, each paying only their own share', async () => {
    const asker = await person(server);
    const b = await person(server, { rub: rub(100) });
    const c = await person(server, { rub: rub(100) });
    const made = await ask(asker, { amount: '100.01', phones: [b.phone, c.phone] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const shares = made.body.shares as { id: string; phone: string; amount: string }[];
    expect(shares.map((s) => [s.phone, s.amount])).toEqual([
      [b.phone, '50.01'],
      [c.phone, '50.00'],
    ]);
    expect((await payIt(b, shares[1]!.id, key())).status).toBe(404);
    expect((await payIt(b, shares[0]!.id, key())).status).toBe(200);
    expect((await payIt(c, shares[1]!.id, key())).status).toBe(200);
    expect(await balance(server, asker)).toBe('100.01');
    const both = await ask(asker, { amount: '10.00', phone: b.phone, phones: [b.phone, c.phone] });
    expect(both.status).toBe(400);
  });

  it('a split that includes the requester asks each friend only their share, and never the requester', async () => {
    const asker = await person(server);
    const b = await person(server);
    const c = await person(server);
    const made = await ask(asker, { amount: '1500.00', phones: [b.phone, c.phone], include_me: true });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.shares.map((s: { phone: string; amount: string }) => [s.phone, s.amount])).toEqual([
      [b.phone, '500.00'],
      [c.phone, '500.00'],
    ]);
    // A remainder stays with the requester; one friend and me is a split too.
    const odd = await ask(asker, { amount: '100.00', phones: [b.phone, c.phone], include_me: true });
    expect(odd.body.shares.map((s: { amount: string }) => s.amount)).toEqual(['33.33', '33.33']);
    const pair = await ask(asker, { amount: '10.00', phones: [b.phone], include_me: true });
    expect(pair.body.shares.map((s: { amount: string }) => s.amount)).toEqual(['5.00']);
    expect((await ask(asker, { amount: '10.00', phones: [b.phone] })).body.code).toBe('FIELD_INVALID');

    // One's own number is refused in a request's words, in either language.
    const self = await ask(asker, { amount: '30.00', phones: [b.phone, asker.phone], include_me: true });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({
      code: 'REQUEST_SELF',
      message: 'Нельзя запросить деньги у самого себя: уберите свой номер',
    });
    const selfEn = await server.call('POST', '/v2/wallet/request', {
      token: asker.token,
      body: { amount: '30.00', currency_code: 'RUB', phone: asker.phone },
      headers: { 'accept-language': 'en' },
    });
    expect(selfEn.body.message).toBe('You cannot ask yourself for money: remove your own number');
  });

  it('says before the PIN what would refuse paying a request, as the pay itself does after it', async () => {
    const asker = await person(server);
    const anon = await person(server, { level: 'anonymous', rub: rub(1000) });
    const made = await ask(asker, { amount: '100.00', phone: anon.phone });
    const check = (who: Person, id: string, headers = {}) =>
      server.call('POST', `/v2/wallet/request/${id}/pay/check`, { token: who.token, headers });
    const anonymous = await check(anon, made.body.id);
    expect(anonymous.status, JSON.stringify(anonymous.body)).toBe(200);
    expect(anonymous.body.ok).toBe(false);
    expect(anonymous.body.problems.map((p: { code: string }) => p.code)).toEqual(['TRANSFER_NOT_ALLOWED']);
    expect((await payIt(anon, made.body.id, key())).body.code).toBe('TRANSFER_NOT_ALLOWED');

    // Short of money, then fine; one's own request and a paid one are the request's own words.
    const poor = await person(server, { rub: rub(10) });
    const large = await ask(asker, { amount: '100.00', phone: poor.phone });
    expect((await check(poor, large.body.id)).body.problems.map((p: { code: string }) => p.code)).toEqual([
      'INSUFFICIENT_FUNDS',
    ]);
    const rich = await person(server, { rub: rub(1000) });
    const fine = await ask(asker, { amount: '100.00', phone: rich.phone });
    expect((await check(rich, fine.body.id)).body).toMatchObject({ ok: true, problems: [] });
    expect((await check(asker, fine.body.id)).body.problems[0].code).toBe('REQUEST_OWN');
    expect((await payIt(rich, fine.body.id, key())).status).toBe(200);
    const paid = await check(rich, fine.body.id, { 'accept-language': 'en' });
    expect(paid.body.problems).toEqual([{ code: 'REQUEST_PAID', message: 'The request is already paid' }]);
    // Somebody else's request is not found, as it is for paying.
    expect((await check(poor, fine.body.id)).status).toBe(404);
  });

  it('resolving a phone for a request counts under the recipient lookup limit', async () => {
    const asker = await person(server);
    const missing = await ask(asker, { amount: '1.00', phone: uniquePhone() });
    expect(missing.body.code).toBe('RECIPIENT_NOT_FOUND');
    for (let i = 1; i < RECIPIENT_LOOKUPS.max; i++)
      await server.call('GET', `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(uniquePhone())}`, {
        token: asker.token,
      });
    const over = await ask(asker, { amount: '1.00', phone: uniquePhone() });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('RATE_LIMITED');
  });
});

describe(`templates, recent recipients and repeat (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('saves, lists and deletes templates; another person cannot delete them', async () => {
    const me = await person(server);
    const friend = await person(server);
    const made = await server.call('POST', '/v2/wallet/template', {
      token: me.token,
      body: { name: 'Аренда', phone: friend.phone, amount: '15000.00', currency_code: 'RUB' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.template).toMatchObject({
      name: 'Аренда',
      phone: friend.phone,
      recipient: 'Иван П.',
      amount: '15000.00',
    });
    const noAmount = await server.call('POST', '/v2/wallet/template', {
      token: me.token,
      body: { name: 'Брат', phone: friend.phone, currency_code: 'RUB' },
    });
    expect(noAmount.body.template.amount).toBeNull();
    const missing = await server.call('POST', '/v2/wallet/template', {
      token: me.token,
      body: { name: 'Никто', phone: uniquePhone(), currency_code: 'RUB' },
    });
    expect(missing.body.code).toBe('RECIPIENT_NOT_FOUND');
    const listed = await server.call('GET', '/v2/wallet/template', { token: me.token });
    expect(listed.body.results.map((t: { name: string }) => t.name)).toEqual(['Аренда', 'Брат']);
    const foreign = await server.call('DELETE', `/v2/wallet/template/${made.body.template.id}`, {
      token: friend.token,
    });
    expect(foreign.status).toBe(404);
    const deleted = await server.call('DELETE', `/v2/wallet/template/${made.body.template.id}`, {
      token: me.token,
    });
    expect(deleted.status).toBe(200);
    expect((await server.call('GET', '/v2/wallet/template', { token: me.token })).body.results).toHaveLength(
      1,
    );
  });

  it('recent recipients and repeat read one’s own outgoing transfers', async () => {
    const me = await person(server, { rub: rub(1000) });
    const first = await person(server);
    const second = await person(server);
    for (const to of [first, second, first]) {
      server.clock.advance(1000);
      const sent = await server.call('POST', '/v2/wallet/transfer', {
        token: me.token,
        body: { phone: to.phone, amount: '12.50', currency_code: 'RUB', pin: PIN },
      });
      expect(sent.status).toBe(200);
    }
    const recent = await server.call('GET', '/v2/wallet/transfer/recent', { token: me.token });
    expect(recent.body.results.map((r: { phone: string }) => r.phone)).toEqual([first.phone, second.phone]);
    const history = await server.call('GET', '/v2/wallet/transaction', { token: me.token });
    const out = history.body.results.find((t: { amount: string }) => t.amount === '-12.50');
    const repeat = await server.call('GET', `/v2/wallet/transaction/${out.id}/repeat`, { token: me.token });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({
      phone: first.phone,
      name: 'Иван П.',
      amount: '12.50',
      currency_code: 'RUB',
    });
    const theirs = await server.call('GET', `/v2/wallet/transaction/${out.id}/repeat`, {
      token: first.token,
    });
    expect(theirs.status).toBe(404);
    const topup = history.body.results.find((t: { kind: string }) => t.kind === 'topup');
    expect(
      (await server.call('GET', `/v2/wallet/transaction/${topup.id}/repeat`, { token: me.token })).status,
    ).toBe(404);
  });
});
