/**
 * A person's name on an English screen reads in Latin letters, as the bank card writes it (ICAO Doc
 * 9303), and stays Cyrillic in Russian: the history's descriptions, the notifications, a held
 * operation's reasons naming the trusted person and the receipt
 * (docs/decisions/language-and-format.md#names-on-english-screens).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { type Person, PIN, person } from './withdrawal-helpers.ts';

const NB = '\u00a0';
const EN = { 'accept-language': 'en-US,en;q=0.9' };
const RU = { 'accept-language': 'ru-RU,ru;q=0.9' };

describe(`names on English screens (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function named(first: string, last: string, rub = 0n): Promise<Person> {
    const who = await person(server, { level: 'full', rub });
    await server.ctx.db.query('UPDATE users SET first_name = $2, last_name = $3 WHERE id = $1', [
      who.userId,
      first,
      last,
    ]);
    return who;
  }
  const messages = async (who: Person, headers: Record<string, string>) =>
    (
      await server.call('GET', '/v2/wallet/user/notification', { token: who.token, headers })
    ).body.results.map((one: { message: string }) => one.message);
  const descriptions = async (who: Person, headers: Record<string, string>) =>
    (await server.call('GET', '/v2/wallet/transaction', { token: who.token, headers })).body.results.map(
      (one: { description: string }) => one.description,
    );

  it('a transfer’s history, notice and receipt name the other side in Latin in English only', async () => {
    const yulia = await named('Юлия', 'Щербакова', 100_000n);
    const petr = await named('Пётр', 'Жуков');
    const sent = await server.call('POST', '/v2/wallet/transfer', {
      token: yulia.token,
      body: { phone: petr.phone, amount: '250.00', currency_code: 'RUB', pin: PIN },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    expect(await descriptions(yulia, EN)).toContain('Transfer to Petr Zh.');
    expect(await descriptions(yulia, RU)).toContain('Перевод: Пётр Ж.');
    expect(await descriptions(petr, EN)).toContain('Transfer from Iuliia Shch.');
    expect(await descriptions(petr, RU)).toContain('Перевод: Юлия Щ.');

    expect(await messages(petr, EN)).toContain('You received a transfer of ₽250.00 from Iuliia Shch.');
    expect(await messages(petr, RU)).toContain(`Вам поступил перевод 250,00${NB}₽. Отправитель: Юлия Щ.`);

    const history = await server.call('GET', '/v2/wallet/transaction', { token: petr.token });
    const id = history.body.results[0].id;
    const receipt = (headers: Record<string, string>) =>
      server.call('GET', `/v2/wallet/transaction/${id}/receipt`, { token: petr.token, headers });
    expect((await receipt(EN)).body).toMatchObject({
      description: 'Transfer from Iuliia Shch.',
      counterparty: 'Iuliia Shch.',
    });
    expect((await receipt(RU)).body).toMatchObject({
      description: 'Перевод: Юлия Щ.',
      counterparty: 'Юлия Щ.',
    });
    await expectLedgerSound(server);
  });

  it('a request’s notice and a held operation’s reasons name the person in Latin in English', async () => {
    const anna = await named('Анна', 'Смирнова', 1_000_000n);
    const olga = await named('Ольга', 'Кузнецова');
    const asked = await server.call('POST', '/v2/wallet/request', {
      token: olga.token,
      body: { currency_code: 'RUB', amount: '150.00', phone: anna.phone },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(
      (await messages(anna, EN)).some((text: string) => text.startsWith('Olga K. asks you to pay')),
    ).toBe(true);
    expect(
      (await messages(anna, RU)).some((text: string) => text.startsWith('Ольга К. просит перевести')),
    ).toBe(true);

    const trusted = await server.call('PUT', '/v2/wallet/trusted-person', {
      token: anna.token,
      body: { phone: olga.phone, threshold: '1000', new_payees: false },
    });
    expect(trusted.status, JSON.stringify(trusted.body)).toBe(200);
    expect((await messages(olga, EN)).some((text: string) => text.startsWith('Anna S. wants you'))).toBe(
      true,
    );
    await server.call('POST', '/v2/wallet/trusted-person/accept', {
      token: olga.token,
      body: { id: anna.userId },
    });

    const petr = await named('Пётр', 'Жуков');
    const held = await server.call('POST', '/v2/wallet/transfer', {
      token: anna.token,
      body: { phone: petr.phone, amount: '5000.00', currency_code: 'RUB', pin: PIN },
      headers: EN,
    });
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expect(held.body.reason_list).toEqual(['₽1,000 or more — Olga K. approves such operations']);
    const holds = (headers: Record<string, string>) =>
      server.call('GET', '/v2/wallet/holds', { token: anna.token, headers });
    expect((await holds(RU)).body.results[0].reason_list).toEqual([
      `Сумма от 1${NB}000${NB}₽ — такие операции подтверждает Ольга К.`,
    ]);
    expect((await holds(EN)).body.results[0].reason_list).toEqual([
      '₽1,000 or more — Olga K. approves such operations',
    ]);
    // The trusted person's notice names the payer and the payee in Latin in English.
    const asking = (await messages(olga, EN)).find((text: string) =>
      text.startsWith('Anna S. asks you to approve'),
    );
    expect(asking).toContain('(Petr Zh.)');
    expect(
      (await messages(olga, RU)).some((text: string) => text.startsWith('Анна С. просит одобрить операцию')),
    ).toBe(true);
    await expectLedgerSound(server);
  });
});
