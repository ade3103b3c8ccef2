/**
 * СБП through the YooKassa payouts adapter against a local fake of its API (docs/decisions/sbp.md): the
 * participants from GET /sbp_banks, payouts with `payout_destination_data: {type: 'sbp'}`, the recipient
 * check as personal data of type `sbp_payout_recipient` and its refusal `recipient_check_failed`, and a
 * provider answering garbage.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { REASON_RECIPIENT_CHECK_FAILED } from '../src/providers/payouts/payouts-provider.ts';
import { FakeYooKassaPayouts, yooKassaPayoutsEnv } from './fakes/yookassa-payouts.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { balance, type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const SBER = '100000000111';

describe(`СБП through YooKassa payouts against a fake API (${databaseLabel})`, () => {
  const fake = new FakeYooKassaPayouts();
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    await fake.start();
    server = await startTestServer({ clock, env: yooKassaPayoutsEnv(fake) });
  });
  afterAll(async () => {
    await server.close();
    await fake.stop();
  });
  afterEach(() => expectLedgerSound(server));

  const send = (who: Person, body: Record<string, unknown> = {}) =>
    server.call('POST', '/v2/wallet/sbp/transfer', {
      token: who.token,
      body: { phone: '+79161234567', bank_id: SBER, amount: '100', pin: PIN, ...body },
    });
  const sentFor = (reference: string) =>
    fake.requests.find((r) => r.method === 'POST' && (r.body as any)?.metadata?.reference === reference);

  it('a participants list that is garbage is SBP_UNAVAILABLE, never a 5xx of ours; then the list is read', async () => {
    const ivan = await person(server);
    fake.failNext(200, { hello: 'world' });
    const garbage = await server.call('GET', '/v2/wallet/sbp/banks', { token: ivan.token });
    expect(garbage.status).toBe(503);
    expect(garbage.body.code).toBe('SBP_UNAVAILABLE');
    const banks = await server.call('GET', '/v2/wallet/sbp/banks', { token: ivan.token });
    expect(banks.status).toBe(200);
    expect(banks.body.results).toEqual([
      { id: SBER, name: 'Сбербанк' },
      { id: '100000000004', name: 'Т-Банк' },
    ]);
    const asked = fake.requests.filter((r) => r.path === '/sbp_banks');
    expect(asked).toHaveLength(2);
    // Kept: asked again only a day later.
    await server.call('GET', '/v2/wallet/sbp/banks', { token: ivan.token });
    expect(fake.requests.filter((r) => r.path === '/sbp_banks')).toHaveLength(2);
  });

  it('checks without a name (YooKassa does not tell it) and refuses a bank that is not a participant', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const check = await server.call('POST', '/v2/wallet/sbp/check', {
      token: ivan.token,
      body: { phone: '+79161234567', bank_id: SBER, amount: '100' },
    });
    expect(check.body).toMatchObject({ ok: true, bank_name: 'Сбербанк', recipient_name: null });
    const unknown = await send(ivan, { bank_id: '100000000901' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('SBP_BANK_UNKNOWN');
    expect(await balance(server, ivan)).toBe('1000.00');
  });

  it('sends the payout in YooKassa’s СБП shape and settles it when YooKassa says it succeeded', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const created = await send(ivan, { amount: '300', comment: 'Долг' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.receipt.id;
    expect(created.body.receipt.description).toBe('Перевод по СБП: Сбербанк, +7 916 ***-**-67');
    const sent = sentFor(id)!;
    expect(sent.idempotenceKey).toBe(`payout:${id}`);
    expect(sent.body).toMatchObject({
      amount: { value: '300.00', currency: 'RUB' },
      payout_destination_data: { type: 'sbp', phone: '79161234567', bank_id: SBER },
      description: 'Долг',
    });
    expect((sent.body as Record<string, unknown>).personal_data).toBeUndefined();
    expect(await balance(server, ivan)).toBe('700.00');
    fake.settle(fake.byReference(id)!.id, 'succeeded');
    clock.advance(60_001);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${id}`, { token: ivan.token });
    expect(receipt.body.status).toBe('complete');
    expect(await balance(server, ivan)).toBe('700.00');
  });

  it('to myself: the verified name goes as personal data; recipient_check_failed returns the money', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(1000) });
    fake.owners.set(ivan.phone.slice(1), 'Сидоров');
    const created = await send(ivan, { phone: ivan.phone, own: true, amount: '400' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.receipt.id;
    const personal = fake.requests.find((r) => r.path === '/personal_data')!;
    expect(personal.body).toEqual({ type: 'sbp_payout_recipient', last_name: 'Петров', first_name: 'Иван' });
    expect(personal.idempotenceKey).toBe(`payout:${id}:recipient`);
    expect((sentFor(id)!.body as { personal_data: unknown }).personal_data).toEqual([
      { id: expect.stringMatching(/^pd-/) },
    ]);
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${id}`, { token: ivan.token });
    expect(receipt.body).toMatchObject({ status: 'failed', failure_reason: REASON_RECIPIENT_CHECK_FAILED });
    expect(await balance(server, ivan)).toBe('1000.00');

    fake.owners.set(ivan.phone.slice(1), 'Петров');
    const matching = await send(ivan, { phone: ivan.phone, own: true, amount: '400' });
    expect(matching.status).toBe(200);
    fake.settle(fake.byReference(matching.body.receipt.id)!.id, 'succeeded');
    clock.advance(60_001);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await balance(server, ivan)).toBe('600.00');
  });

  it('a payout answered with garbage keeps the money held: the outcome is unknown, nothing is guessed', async () => {
    const ivan = await person(server, { rub: rub(100) });
    fake.failNext(200, 'not a payout');
    const created = await send(ivan, { amount: '40' });
    expect(created.status).toBe(200);
    expect(created.body.receipt.status).toBe('pending');
    expect(await balance(server, ivan)).toBe('60.00');
    const { rows } = await server.ctx.db.query<{ status: string }>(
      'SELECT status FROM payouts WHERE id = $1',
      [created.body.receipt.id],
    );
    expect(rows[0]!.status).toBe('created');
  });
});
