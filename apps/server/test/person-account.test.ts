/**
 * A person's account (docs/decisions/account.md#a-persons-account): the terms before registering and once
 * again after a new version, before the next money operation; sign-in with a discoverable passkey, its
 * new-device notice and its throttle per address.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMS_VERSION } from '../src/modules/terms/service.ts';
import { authRowCounts, ownCode, PERSON, registeredUser } from './auth-helpers.ts';
import { fundPhone } from './fund.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer, uniquePhone } from './helpers.ts';
import { SoftAuthenticator } from './passkey-authenticator.ts';

const ORIGIN = 'http://localhost:8302';
const PASSKEYS = '/v2/wallet/auth/passkeys';

describe(`the terms (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers the current version, its three documents in both languages, and the operator', async () => {
    const ru = await server.call('GET', '/v2/wallet/terms');
    expect(ru.status).toBe(200);
    expect(ru.body.version).toBe(TERMS_VERSION);
    expect(ru.body.documents.map((d: { kind: string }) => d.kind)).toEqual(['terms', 'tariffs', 'memo']);
    expect(ru.body.documents[2].title).toBe('Памятка Банка России об электронных деньгах');
    expect(ru.body.operator).toEqual({
      name: 'ООО «Е-Кошелёк»',
      licence: '№ 0000-К (пример)',
      register_url: 'https://www.cbr.ru/registries/',
    });
    const en = await server.call('GET', '/v2/wallet/terms', { headers: { 'accept-language': 'en' } });
    expect(en.body.documents[0]).toEqual({
      kind: 'terms',
      title: 'Terms of use of the wallet',
      url: `/legal/${TERMS_VERSION}/terms.en.html`,
    });
    // Every document the answer links is shipped with the app, but the tariffs, which the server renders.
    for (const { kind, url } of [...ru.body.documents, ...en.body.documents]) {
      if (kind === 'tariffs') {
        const page = await server.app.inject({ method: 'GET', url });
        expect(page.statusCode, url).toBe(200);
        expect(page.headers['content-type']).toContain('text/html');
      } else expect(existsSync(new URL(`../../web/public${url}`, import.meta.url)), url).toBe(true);
    }
  });

  it('refuses a registration without consent or with an old version, and keeps nothing', async () => {
    const phone = uniquePhone();
    const { terms_version: _, ...withoutTerms } = PERSON;
    const before = await authRowCounts(server);
    const missing = await server.call('POST', '/v2/wallet/auth/register', {
      body: { ...withoutTerms, phone },
    });
    expect(missing.status).toBe(400);
    expect(isErrorShape(missing.body)).toBe(true);
    expect(missing.body).toMatchObject({
      code: 'TERMS_REQUIRED',
      message: 'Прочитайте условия, тарифы и памятку и подтвердите согласие с ними',
    });
    const old = await server.call('POST', '/v2/wallet/auth/register', {
      body: { ...PERSON, phone, terms_version: '2020-01-01' },
      headers: { 'accept-language': 'en' },
    });
    expect(old.status).toBe(409);
    expect(old.body).toMatchObject({
      code: 'TERMS_OUTDATED',
      message: 'The terms have been updated. Please read the new version and accept it',
    });
    expect(await authRowCounts(server)).toEqual(before);
  });

  it('records the version accepted at registration and when', async () => {
    const { phone, token } = await registeredUser(server);
    const { rows } = await server.ctx.db.query<{ version: string; accepted_at: Date }>(
      `SELECT version, accepted_at FROM terms_acceptances a JOIN users u ON u.id = a.user_id WHERE u.phone = $1`,
      [phone],
    );
    expect(rows).toEqual([{ version: TERMS_VERSION, accepted_at: server.clock.now() }]);
    const info = await server.call('GET', '/v2/wallet/auth/info', { token });
    expect(info.body.terms).toEqual({ version: TERMS_VERSION, accepted: true });
  });

  it('asks a new version once, before the next money operation', async () => {
    const { phone, token } = await registeredUser(server);
    // The person accepted an earlier version only: as if a new one was published since.
    await server.ctx.db.query(
      `UPDATE terms_acceptances SET version = '2026-01-01'
       WHERE user_id = (SELECT id FROM users WHERE phone = $1)`,
      [phone],
    );
    const info = await server.call('GET', '/v2/wallet/auth/info', { token });
    expect(info.body.terms).toEqual({ version: TERMS_VERSION, accepted: false });
    const topUp = () =>
      server.call('POST', '/v2/wallet/top-up', { token, body: { amount: '100.00', currency_code: 'RUB' } });
    const refused = await topUp();
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 'error', code: 'TERMS_NOT_ACCEPTED' });
    const { rows: orders } = await server.ctx.db.query('SELECT 1 FROM topup_orders');
    expect(orders).toHaveLength(0);

    const stale = await server.call('POST', '/v2/wallet/terms/accept', {
      token,
      body: { terms_version: '2026-01-01' },
    });
    expect(stale.body.code).toBe('TERMS_OUTDATED');
    const accepted = await server.call('POST', '/v2/wallet/terms/accept', {
      token,
      body: { terms_version: TERMS_VERSION },
    });
    expect(accepted.body).toEqual({ status: 'success', message: 'Условия приняты' });
    expect((await server.call('GET', '/v2/wallet/auth/info', { token })).body.terms.accepted).toBe(true);
    expect((await topUp()).status).toBe(200);
    // Asked once: accepting again keeps the first acceptance, and money goes on.
    await server.call('POST', '/v2/wallet/terms/accept', { token, body: { terms_version: TERMS_VERSION } });
    const { rows } = await server.ctx.db.query(
      `SELECT version FROM terms_acceptances WHERE user_id = (SELECT id FROM users WHERE phone = $1)`,
      [phone],
    );
    expect(rows).toHaveLength(2);
    expect((await topUp()).status).toBe(200);
  });
});

describe(`sign-in with a passkey (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: ORIGIN } });
  });
  afterAll(() => server.close());

  async function withPasskey() {
    const user = await registeredUser(server, { pin: '2468', headers: { 'user-agent': 'Laptop/1.0' } });
    const authenticator = new SoftAuthenticator();
    // Adding a passkey needs the PIN, not the session alone
    // (docs/decisions/security-rules.md#hardening-third-round).
    const options = await server.call('POST', `${PASSKEYS}/register/options`, {
      token: user.token,
      body: { pin: '2468' },
    });
    const added = await server.call('POST', `${PASSKEYS}/register`, {
      token: user.token,
      body: {
        challenge_id: options.body.challenge_id,
        response: authenticator.create(options.body.options, ORIGIN),
      },
    });
    expect(added.status).toBe(200);
    return { ...user, authenticator };
  }

  /** One sign-in ceremony from an address: options, the authenticator's answer, the sign-in. */
  async function signIn(
    authenticator: SoftAuthenticator,
    { address = '127.0.0.1', userAgent = 'Laptop/1.0', origin = ORIGIN } = {},
  ) {
    const options = await server.app.inject({
      method: 'POST',
      url: `${PASSKEYS}/login/options`,
      remoteAddress: address,
    });
    expect(options.statusCode).toBe(200);
    const body = options.json();
    // Discoverable: no credentials named, the device offers the person's own.
    expect(body.options.allowCredentials ?? []).toEqual([]);
    expect(body.options.userVerification).toBe('required');
    const answer = await server.app.inject({
      method: 'POST',
      url: `${PASSKEYS}/login`,
      remoteAddress: address,
      headers: { 'content-type': 'application/json', 'user-agent': userAgent },
      payload: JSON.stringify({
        challenge_id: body.challenge_id,
        response: authenticator.get(body.options, origin),
      }),
    });
    return { status: answer.statusCode, body: answer.json() };
  }

  it('signs in without SMS and answers a token as the SMS sign-in does', async () => {
    const { phone, authenticator } = await withPasskey();
    const signedIn = await signIn(authenticator);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body).toEqual({
      status: 'success',
      message: 'Вы вошли в кошелёк',
      auth_token: expect.any(String),
    });
    const info = await server.call('GET', '/v2/wallet/auth/info', { token: signedIn.body.auth_token });
    expect(info.body.phone).toBe(phone);
    // The same device: no notice.
    const outbox = await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    expect(outbox.body.results.some((sms: { text: string }) => sms.text.includes('нового устройства'))).toBe(
      false,
    );
  });

  it('tells the owner of a sign-in from a new device', async () => {
    const { phone, authenticator } = await withPasskey();
    const signedIn = await signIn(authenticator, { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0)' });
    expect(signedIn.status).toBe(200);
    const outbox = await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    expect(outbox.body.results[0].text).toContain('вход в кошелёк с нового устройства');
    expect(outbox.body.results[0].code).toBe('');
  });

  it('refuses an unknown passkey and a replayed challenge', async () => {
    const stranger = await signIn(new SoftAuthenticator(), { address: '10.1.0.1' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.code).toBe('PASSKEY_INVALID');
    const { authenticator } = await withPasskey();
    const options = await server.call('POST', `${PASSKEYS}/login/options`);
    const payload = {
      challenge_id: options.body.challenge_id,
      response: authenticator.get(options.body.options, ORIGIN),
    };
    expect((await server.call('POST', `${PASSKEYS}/login`, { body: payload })).status).toBe(200);
    const replay = await server.call('POST', `${PASSKEYS}/login`, { body: payload });
    expect(replay.body.code).toBe('PASSKEY_INVALID');
  });

  it('throttles an address after five failed tries, even for a right passkey, and not other addresses', async () => {
    const { authenticator } = await withPasskey();
    const address = '10.2.0.7';
    for (let i = 0; i < 5; i += 1) {
      const wrong = await signIn(authenticator, { address, origin: 'https://evil.example' });
      expect(wrong.body.code).toBe('PASSKEY_INVALID');
    }
    const locked = await signIn(authenticator, { address });
    expect(locked.status).toBe(429);
    expect(isErrorShape(locked.body)).toBe(true);
    expect(locked.body).toMatchObject({
      code: 'PASSKEY_LOGIN_LOCKED',
      message: 'Слишком много неудачных входов с ключом доступа. Попробуйте через 60 мин или войдите по SMS',
    });
    expect((await signIn(authenticator, { address: '10.2.0.8' })).status).toBe(200);
    // An hour later the address may try again.
    server.clock.advance(3600_000 + 1000);
    expect((await signIn(authenticator, { address })).status).toBe(200);
  });
});

describe(`one's own data (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        PUBLIC_URL: ORIGIN,
        KYC_PROVIDER: 'manual',
        DOCUMENTS_KEY: 'a-documents-key-of-at-least-32-chars-0001',
      },
    });
  });
  afterAll(() => server.close());

  it('answers everything kept about the person, as JSON and PDF, and no secret', async () => {
    const { phone, token } = await registeredUser(server, {
      pin: '2468',
      headers: { 'user-agent': 'Laptop/1.0' },
    });
    const authenticator = new SoftAuthenticator();
    const options = await server.call('POST', `${PASSKEYS}/register/options`, {
      token,
      body: { pin: '2468' },
    });
    await server.call('POST', `${PASSKEYS}/register`, {
      token,
      body: {
        challenge_id: options.body.challenge_id,
        response: authenticator.create(options.body.options, ORIGIN),
        name: 'Ноутбук',
      },
    });
    await fundPhone(server.ctx, phone, 150_000n);
    const upgrade = await server.call('POST', '/v2/wallet/identification-level/upgrade', { token });
    const applicationId = String(upgrade.body.verification_url).split('=').at(-1);
    const documents = await server.call('POST', '/v2/wallet/identification-level/documents', {
      token,
      body: {
        application_id: applicationId,
        document_type: 'snils',
        document_number: '112-233-445 95',
        full_name: 'Петров Иван Сергеевич',
        birth_date: '1990-05-17',
      },
    });
    expect(documents.status, JSON.stringify(documents.body)).toBe(200);

    const json = await server.call('GET', '/v2/wallet/me/export', { token });
    expect(json.status).toBe(200);
    expect(json.headers['content-disposition']).toMatch(
      /attachment; filename="e-wallet-my-data-\d{4}-\d{2}-\d{2}\.json"/,
    );
    const data = json.body;
    expect(data.profile).toMatchObject({
      first_name: 'Иван',
      last_name: 'Петров',
      phone,
      email: 'ivan@example.com',
    });
    expect(data.consents).toEqual([{ terms_version: TERMS_VERSION, accepted_at: expect.any(String) }]);
    expect(data.sessions).toEqual([expect.objectContaining({ user_agent: 'Laptop/1.0', ended_at: null })]);
    expect(data.passkeys).toEqual([expect.objectContaining({ name: 'Ноутбук' })]);
    expect(data.identification.applications).toEqual([
      expect.objectContaining({ document_type: 'snils', status: 'in_review' }),
    ]);
    expect(data.accounts[0]).toMatchObject({ currency_code: 'RUB', balance: '1500.00' });
    expect(data.operations).toHaveLength(1);
    expect(data.notifications.length).toBeGreaterThanOrEqual(2);
    for (const key of ['requests', 'templates', 'schedules', 'notification_settings', 'operation_reports'])
      expect(data).toHaveProperty(key);

    // No secret: no PIN hash or salt, no token or its hash, no passkey key, no document number.
    const text = JSON.stringify(data);
    const { rows } = await server.ctx.db.query<{
      pin_hash: Buffer;
      pin_salt: Buffer;
      token_hash: Buffer;
      public_key: Buffer;
    }>(
      `SELECT u.pin_hash, u.pin_salt, s.token_hash, p.public_key FROM users u
       JOIN sessions s ON s.user_id = u.id JOIN passkeys p ON p.user_id = u.id WHERE u.phone = $1`,
      [phone],
    );
    const secrets = rows[0]!;
    for (const bytes of [secrets.pin_hash, secrets.pin_salt, secrets.token_hash, secrets.public_key])
      for (const encoding of ['hex', 'base64', 'base64url'] as const)
        expect(text).not.toContain(Buffer.from(bytes).toString(encoding));
    expect(text).not.toContain(token);
    expect(text).not.toMatch(/112-?233-?445|4595|pin_hash|token_hash|document_number|photo/i);

    const pdf = await server.call('GET', '/v2/wallet/me/export?format=pdf', {
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(String(pdf.body).startsWith('%PDF-')).toBe(true);
  });

  it('is limited to five exports an hour', async () => {
    const { token } = await registeredUser(server);
    for (let i = 0; i < 5; i += 1)
      expect((await server.call('GET', '/v2/wallet/me/export', { token })).status).toBe(200);
    const limited = await server.call('GET', '/v2/wallet/me/export', { token });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
    expect((await server.call('GET', '/v2/wallet/me/export')).status).toBe(401);
  });
});

describe(`closing the wallet (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const GOOD_CARD = '4111111111111111';
  async function simplifiedWithMoney(currency: 'RUB' | 'USD' = 'RUB') {
    const user = await registeredUser(server, { pin: '2468' });
    await server.ctx.db.query(`UPDATE users SET identification_level = 'simplified' WHERE phone = $1`, [
      user.phone,
    ]);
    await fundPhone(server.ctx, user.phone, 150_000n);
    if (currency === 'USD') await fundPhone(server.ctx, user.phone, 2_500n, 'USD');
    return user;
  }

  it('pays the roubles out to the card, ends everything, frees the phone; the old wallet cannot sign in', async () => {
    const { phone, token } = await simplifiedWithMoney();
    const other = await registeredUser(server);
    const asked = await server.call('POST', '/v2/wallet/request', {
      token,
      body: { amount: '10.00', currency_code: 'RUB', phone: other.phone },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const preview = await server.call('GET', '/v2/wallet/close', { token });
    expect(preview.body).toEqual({
      accounts: [{ currency_code: 'RUB', balance: '1500.00', outcome: 'payout' }],
      problems: [],
      active_schedules: 0,
      pending_requests: 1,
      needs_card: true,
    });
    const code = await ownCode(server, { phone, token }, 'close_wallet');
    const noCard = await server.call('POST', '/v2/wallet/close', {
      token,
      body: { pin: '2468', confirm_code: code },
    });
    expect(noCard.body).toMatchObject({ code: 'FIELD_REQUIRED' });
    const closed = await server.call('POST', '/v2/wallet/close', {
      token,
      body: { pin: '2468', confirm_code: code, pan: GOOD_CARD },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toEqual({
      status: 'success',
      message: 'Кошелёк закрыт',
      payout: {
        amount: '1500.00',
        currency_code: 'RUB',
        card: '411111******1111',
        // The latest the card should have it: when an open payout becomes an operator's case.
        expected_by: new Date(server.clock.now().getTime() + 30 * 60_000).toISOString(),
      },
    });
    const { rows } = await server.ctx.db.query<{ amount: string; closed_phone: string; status: string }>(
      `SELECT p.amount::text, u.closed_phone, r.status FROM payouts p JOIN users u ON u.id = p.user_id
       JOIN payment_requests r ON r.requester_id = u.id WHERE u.closed_phone = $1`,
      [phone],
    );
    expect(rows).toEqual([{ amount: '150000', closed_phone: phone, status: 'cancelled' }]);
    // Sessions ended; the phone no longer signs in to the old wallet.
    expect((await server.call('GET', '/v2/wallet/auth/info', { token })).status).toBe(401);
    server.clock.advance(61_000);
    await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone } });
    const outbox = await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    expect(outbox.body.results[0].text).toContain('кошелёк закрыт');
    const login = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone, confirm_code: '0000' },
    });
    expect(login.body.code).toBe('CODE_INVALID');
    // The phone registers a new, empty wallet.
    server.clock.advance(61_000);
    const again = await registeredUser(server, { phone });
    const wallet = await server.call('GET', '/v2/wallet', { token: again.token });
    expect(wallet.body.results[0].accounts).toEqual([
      expect.objectContaining({ currency_code: 'RUB', balance: '0.00' }),
    ]);
  });

  it('refuses while an operation is held, and spends no code', async () => {
    const { phone, token } = await simplifiedWithMoney();
    const topUp = await server.call('POST', '/v2/wallet/top-up', {
      token,
      body: { amount: '100.00', currency_code: 'RUB' },
    });
    expect(topUp.status).toBe(200);
    const code = await ownCode(server, { phone, token }, 'close_wallet');
    const refused = await server.call('POST', '/v2/wallet/close', {
      token,
      body: { pin: '2468', confirm_code: code, pan: GOOD_CARD },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'WALLET_CLOSE_PENDING',
      message: 'Кошелёк можно закрыть, когда завершатся операции в обработке: пополнение',
    });
    expect((await server.call('GET', '/v2/wallet/auth/info', { token })).status).toBe(200);
    const { rows } = await server.ctx.db.query('SELECT 1 FROM auth_codes WHERE phone = $1', [phone]);
    expect(rows).toHaveLength(1);
  });

  it('refuses while another currency holds money, naming it', async () => {
    const { phone, token } = await simplifiedWithMoney('USD');
    const preview = await server.call('GET', '/v2/wallet/close', {
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(preview.body.accounts).toContainEqual({
      currency_code: 'USD',
      balance: '25.00',
      outcome: 'exchange_first',
    });
    expect(preview.body.problems).toEqual([
      {
        code: 'WALLET_CLOSE_CURRENCIES',
        message: 'Please exchange into roubles or spend the balance first: $25.00',
      },
    ]);
    const code = await ownCode(server, { phone, token }, 'close_wallet');
    const refused = await server.call('POST', '/v2/wallet/close', {
      token,
      body: { pin: '2468', confirm_code: code, pan: GOOD_CARD },
    });
    expect(refused.body.code).toBe('WALLET_CLOSE_CURRENCIES');
    const { rows } = await server.ctx.db.query(
      'SELECT 1 FROM payouts p JOIN users u ON u.id = p.user_id WHERE u.phone = $1',
      [phone],
    );
    expect(rows).toHaveLength(0);
  });

  it('closes an empty wallet with the PIN and the code alone; a wrong PIN closes nothing', async () => {
    const { phone, token } = await registeredUser(server, { pin: '2468' });
    const code = await ownCode(server, { phone, token }, 'close_wallet');
    const wrong = await server.call('POST', '/v2/wallet/close', {
      token,
      body: { pin: '1111', confirm_code: code },
    });
    expect(wrong.body.code).toBe('PIN_INVALID');
    const closed = await server.call('POST', '/v2/wallet/close', {
      token,
      body: { pin: '2468', confirm_code: code },
    });
    expect(closed.body).toEqual({ status: 'success', message: 'Кошелёк закрыт', payout: null });
  });
});
