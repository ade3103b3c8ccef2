/**
 * A saved СБП payee and 'Повторить' of an СБП transfer (docs/decisions/sbp.md#saved-payees-and-repeat):
 * a template keeps a Russian phone at a participant bank; the history marks an СБП transfer and its repeat
 * answers the phone (kept sealed, never in the clear), the bank and the amount; others' are not repeatable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { SANDBOX_SBP_PAYS } from '../src/providers/payouts/sandbox-sbp.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer } from './helpers.ts';
import { type Person, PIN, person, tablesContaining } from './withdrawal-helpers.ts';

const PAYEE = '+79161234567';

describe(`СБП payees and repeat (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const save = (who: Person, body: Record<string, unknown>) =>
    server.call('POST', '/v2/wallet/template', {
      token: who.token,
      body: { name: 'Маме в Т-Банк', phone: PAYEE, currency_code: 'RUB', kind: 'sbp', ...body },
    });

  it('saves an СБП payee with its bank, refuses a foreign phone, an unknown bank and another currency', async () => {
    const ivan = await person(server);
    const made = await save(ivan, { bank_id: '100000000004', amount: '500' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.template).toMatchObject({
      kind: 'sbp',
      bank: { id: '100000000004', name: 'Т-Банк' },
      phone: PAYEE,
      amount: '500.00',
      recipient: '',
    });
    const listed = await server.call('GET', '/v2/wallet/template', { token: ivan.token });
    expect(listed.body.results.map((t: { kind: string }) => t.kind)).toEqual(['sbp']);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ phone: '+380501234567', bank_id: '100000000004' }, 'SBP_PHONE_NOT_RUSSIAN'],
      [{ bank_id: '100000000999' }, 'SBP_BANK_UNKNOWN'],
      [{}, 'SBP_BANK_UNKNOWN'],
      [{ bank_id: '100000000004', currency_code: 'USD' }, 'CURRENCY_NOT_SUPPORTED'],
    ];
    for (const [body, code] of cases) {
      const refused = await save(ivan, body);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(isErrorShape(refused.body)).toBe(true);
      expect(refused.body.code).toBe(code);
    }
    const anna = await person(server);
    const wallet = await save(ivan, { kind: 'wallet', phone: anna.phone });
    expect(wallet.body.template).toMatchObject({ kind: 'wallet', bank: null });
  });

  it('repeat of an СБП transfer answers its phone, bank and amount; only to its own person', async () => {
    const ivan = await person(server, { rub: 100_000n });
    const sent = await server.call('POST', '/v2/wallet/sbp/transfer', {
      token: ivan.token,
      body: { phone: PAYEE, bank_id: SANDBOX_SBP_PAYS, amount: '120.00', pin: PIN },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await runPayoutWorkerOnce(server.ctx);
    const history = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    const row = history.body.results.find((r: { way?: string }) => r.way === 'sbp');
    expect(row).toMatchObject({ kind: 'withdrawal', status: 'complete', way: 'sbp' });
    const repeat = await server.call('GET', `/v2/wallet/transaction/${row.id}/repeat`, { token: ivan.token });
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(200);
    expect(repeat.body).toMatchObject({
      kind: 'sbp',
      phone: PAYEE,
      bank: { id: SANDBOX_SBP_PAYS, name: 'Тестовый банк' },
      amount: '120.00',
      currency_code: 'RUB',
    });
    expect(repeat.body.name).toMatch(/^\p{L}+ \p{L}\.$/u);
    const other = await person(server);
    const theirs = await server.call('GET', `/v2/wallet/transaction/${row.id}/repeat`, {
      token: other.token,
    });
    expect(theirs.body.code).toBe('TRANSACTION_NOT_REPEATABLE');
    // The payout keeps the phone sealed: never in the clear.
    expect(await tablesContaining(server, '79161234567')).toEqual(['payment_templates']);
  });
});
