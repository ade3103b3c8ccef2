import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, postHold, systemAccount, transfer, voidHold } from '../src/ledger/index.ts';
import { notify } from '../src/modules/notifications/service.ts';
import { lastCode, registeredUser } from './auth-helpers.ts';
import { fund, ledgerViolations } from './fund.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';

const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Safari/604.1';
const DESKTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36';

describe(`notifications (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    const violations = await ledgerViolations(server.ctx.db);
    await server.close();
    expect(violations).toEqual([]);
  });

  async function signedIn(userAgent = PHONE_UA) {
    const user = await registeredUser(server, { headers: { 'user-agent': userAgent } });
    const { rows } = await server.ctx.db.query<{ id: string; rub: string }>(
      `SELECT u.id, a.id AS rub FROM users u JOIN ledger_accounts a ON a.user_id = u.id AND a.currency = 'RUB'
       WHERE u.phone = $1`,
      [user.phone],
    );
    return { ...user, userId: rows[0]!.id, rubId: rows[0]!.rub };
  }
  const list = (token: string, query = '', language = 'ru') =>
    server.call('GET', `/v2/wallet/user/notification${query}`, {
      token,
      headers: { 'accept-language': language },
    });

  let key = 0;
  const nextKey = () => `notifications-test:${process.pid}:${++key}`;

  it('greets a new user, in the language of the request', async () => {
    const { token } = await signedIn();
    const ru = await list(token);
    expect(ru.status).toBe(200);
    expect(ru.body).toMatchObject({ next: null, unread: 1 });
    expect(ru.body.results).toEqual([
      {
        id: expect.any(String),
        created_at: expect.any(String),
        kind: 'registration',
        is_read: false,
        message: 'Добро пожаловать в E-Wallet, Иван! Рублёвый счёт открыт.',
        about: { type: 'wallet' },
      },
    ]);
    const en = await list(token, '', 'en');
    expect(en.body.results[0].message).toBe('Welcome to E-Wallet, Ivan! Your rouble account is open.');
  });

  it('tells of money in and money out, and of held money that came back', async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    server.clock.advance(1_000);
    await fund(server.ctx, alice.userId, 150_000n);
    server.clock.advance(1_000);
    await server.ctx.db.tx((q) =>
      transfer(q, {
        debit: alice.rubId,
        credit: bob.rubId,
        amount: 2_550n,
        currency: 'RUB',
        kind: 'transfer',
        idempotencyKey: nextKey(),
        at: server.clock.now(),
      }),
    );
    server.clock.advance(1_000);
    const payout = await systemAccount(server.ctx.db, 'RUB', 'payout_clearing');
    const withdraw = (amount: bigint) =>
      server.ctx.db.tx((q) =>
        hold(q, {
          debit: alice.rubId,
          credit: payout.id,
          amount,
          currency: 'RUB',
          kind: 'withdrawal',
          idempotencyKey: nextKey(),
          at: server.clock.now(),
        }),
      );
    const h1 = await withdraw(10_000n);
    await server.ctx.db.tx((q) => postHold(q, h1.transfer.id, server.clock.now()));
    server.clock.advance(1_000);
    const h2 = await withdraw(20_000n);
    server.clock.advance(1_000);
    await server.ctx.db.tx((q) => voidHold(q, h2.transfer.id, server.clock.now()));

    const messages = (await list(alice.token)).body.results.map((n: any) => `${n.kind}: ${n.message}`);
    expect(messages).toEqual([
      // Amounts as the app shows them (contract formatMoney): no-break spaces, a decimal comma.
      'money_in: Операция отменена, 200,00\u00a0₽ возвращены на счёт',
      'money_out: Вывод 200,00\u00a0₽ на карту',
      'money_out: Вывод 100,00\u00a0₽ на карту',
      'money_out: Перевод 25,50\u00a0₽',
      'money_in: Кошелёк пополнен на 1\u00a0500,00\u00a0₽',
      'registration: Добро пожаловать в E-Wallet, Иван! Рублёвый счёт открыт.',
    ]);
    const bobs = (await list(bob.token, '', 'en')).body.results.map((n: any) => n.message);
    // The recipient is told from whom: the sender's masked name, as the recipient lookup shows it.
    expect(bobs[0]).toBe('You received a transfer of ₽25.50 from Ivan P.');
    const bobsRu = (await list(bob.token)).body.results.map((n: any) => n.message);
    expect(bobsRu[0]).toBe('Вам поступил перевод 25,50\u00a0₽. Отправитель: Иван П.');
  });

  it('tells of a sign-in from a new device only', async () => {
    const user = await signedIn(PHONE_UA);
    const signIn = async (userAgent: string) => {
      const headers = { 'user-agent': userAgent };
      server.clock.advance(61_000);
      expect(
        (await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone: user.phone }, headers }))
          .status,
      ).toBe(200);
      const login = await server.call('POST', '/v2/wallet/auth/login', {
        body: { phone: user.phone, confirm_code: await lastCode(server, user.phone) },
        headers,
      });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
    };
    await signIn(PHONE_UA);
    await signIn(DESKTOP_UA);
    await signIn(DESKTOP_UA);
    const kinds = (await list(user.token)).body.results.map((n: any) => `${n.kind}: ${n.message}`);
    expect(kinds).toEqual([
      'new_device: Вход в кошелёк с нового устройства: Chrome, Windows',
      'registration: Добро пожаловать в E-Wallet, Иван! Рублёвый счёт открыт.',
    ]);
  });

  it('pages both sources newest first with every notification exactly once, and marks them read', async () => {
    const user = await signedIn();
    // Money notifications come from the ledger's entries, the others are stored: interleave them,
    // with several at the same instant within and across the two sources.
    for (let i = 0; i < 9; i++) {
      if (i % 3 === 2)
        await server.ctx.db.tx((q) =>
          notify(q, user.userId, 'new_device', 'new_device', { device: `D${i}` }, server.clock.now()),
        );
      else await fund(server.ctx, user.userId, BigInt(100 * (i + 1)));
      if (i % 2 === 0) server.clock.advance(1);
    }
    // Page sizes 1 to 4 put page ends inside ties of either source and across the two.
    let seen: any[] = [];
    for (const limit of [4, 3, 2, 1]) {
      const pages: any[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await list(user.token, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        expect(page.body.unread).toBe(10);
        pages.push(...page.body.results);
        cursor = page.body.next;
      } while (cursor);
      expect(
        pages.map((n) => n.id),
        `limit ${limit}`,
      ).toEqual((seen.length ? seen : pages).map((n) => n.id));
      seen = pages;
    }
    expect(seen).toHaveLength(10);
    expect(new Set(seen.map((n) => n.id)).size).toBe(10);
    expect(seen.map((n) => n.kind).sort()).toEqual([
      ...Array(6).fill('money_in'),
      ...Array(3).fill('new_device'),
      'registration',
    ]);
    const times = seen.map((n) => Date.parse(n.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(seen.filter((n) => n.kind === 'money_in').map((n) => n.message)).toEqual(
      ['8,00', '7,00', '5,00', '4,00', '2,00', '1,00'].map((a) => `Кошелёк пополнен на ${a}\u00a0₽`),
    );

    // One of each source.
    const two = [seen.find((n) => n.kind === 'money_in').id, seen.find((n) => n.kind === 'new_device').id];
    const read = await server.call('POST', '/v2/wallet/user/notification/read', {
      token: user.token,
      body: { ids: two },
    });
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('success');
    const after = (await list(user.token, '?limit=20')).body;
    expect(after.unread).toBe(8);
    expect(after.results.filter((n: any) => n.is_read).map((n: any) => n.id)).toEqual(
      seen.filter((n) => two.includes(n.id)).map((n) => n.id),
    );
    // Marking again changes nothing.
    await server.call('POST', '/v2/wallet/user/notification/read', { token: user.token, body: { ids: two } });
    expect((await list(user.token)).body.unread).toBe(8);

    // Someone else's notification, of either source, is as unknown as a missing one, and nothing is marked.
    const other = await signedIn();
    await fund(server.ctx, other.userId, 500n);
    const theirs = (await list(other.token)).body.results.map((n: any) => n.id);
    expect(theirs).toHaveLength(2);
    const unread = seen.filter((n) => !two.includes(n.id));
    for (const id of theirs) {
      const refused = await server.call('POST', '/v2/wallet/user/notification/read', {
        token: user.token,
        body: { ids: [unread[0].id, id] },
      });
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe('NOTIFICATION_NOT_FOUND');
    }
    // An id shaped like a money notification's whose entry is missing, or is not a notification
    // (the adjustments account's side of a top-up has no owner).
    const { rows: systemSide } = await server.ctx.db.query<{ id: string }>(
      `SELECT e.id FROM ledger_entries e JOIN ledger_entries mine ON mine.transfer_id = e.transfer_id
       WHERE mine.user_id = $1 AND e.user_id IS NULL LIMIT 1`,
      [user.userId],
    );
    const systemNoticeId = `00000000-0000-8000-8000-${BigInt(systemSide[0]!.id).toString(16).padStart(12, '0')}`;
    for (const id of ['00000000-0000-8000-8000-ffffffffffff', systemNoticeId]) {
      const refused = await server.call('POST', '/v2/wallet/user/notification/read', {
        token: user.token,
        body: { ids: [id] },
      });
      expect(refused.status, id).toBe(404);
    }
    expect((await list(user.token)).body.unread).toBe(8);
    expect((await list(other.token)).body.unread).toBe(2);
    // Malformed ids, in the body or inside a cursor, are bad input, never a server error.
    for (const id of ['------------------------------------', 'ffffffffffffffffffffffffffffffffffff']) {
      const bad = await server.call('POST', '/v2/wallet/user/notification/read', {
        token: user.token,
        body: { ids: [id] },
      });
      expect(bad.status, id).toBe(400);
      const cursor = Buffer.from(`2026-01-01T00:00:00.000Z|${id}`).toString('base64url');
      expect((await list(user.token, `?cursor=${cursor}`)).status, id).toBe(400);
    }

    await server.call('POST', '/v2/wallet/user/notification/read', { token: user.token, body: {} });
    expect((await list(user.token)).body.unread).toBe(0);
    expect((await list(user.token)).body.results.every((n: any) => n.is_read)).toBe(true);
    expect((await list(other.token)).body.unread).toBe(2);
    // A new movement after "all read" is unread.
    await fund(server.ctx, user.userId, 100n);
    expect((await list(user.token)).body.unread).toBe(1);
  });
});
