/**
 * СБП payouts in the back office (docs/decisions/sbp.md#sending-by-sbp): the payouts list and the day's
 * reconciliation name an СБП payout's bank and masked phone, never the full number; the list shows its fee.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { PIN, person } from './withdrawal-helpers.ts';

describe(`СБП payouts in the back office (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let finance: TestOperator;
  const clock = new TestClock(Date.parse('2026-03-20T09:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { SBP_FEE_BASIS_POINTS: '100' } });
    back = await startOps(server);
    finance = await operator(server, back, 'finance');
  }, 180_000);
  afterAll(async () => {
    await back.app.close();
    await server.close();
  });

  it('lists an СБП payout with its bank and masked phone, in payouts and in the reconciliation', async () => {
    const ivan = await person(server, { rub: 100_000n });
    const sent = await server.call('POST', '/v2/wallet/sbp/transfer', {
      token: ivan.token,
      body: { phone: '+79161234567', bank_id: '100000000111', amount: '100', pin: PIN },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const listed = await back.call('GET', '/ops/v1/payouts?status=open', { token: finance.token });
    expect(listed.status).toBe(200);
    const row = listed.body.results.find((p: { id: string }) => p.id === sent.body.receipt.id);
    expect(row).toMatchObject({
      destination: 'СБП · Сбербанк · +7 916 ***-**-67',
      destination_type: 'sbp',
      amount: '100.00',
      fee: '1.00',
    });
    expect(JSON.stringify(listed.body)).not.toContain('9161234567');

    // The provider paid it while the ledger still holds it: the difference names where it went.
    await server.ctx.db.query(`UPDATE sandbox_payouts SET status = 'succeeded' WHERE reference = $1`, [
      sent.body.receipt.id,
    ]);
    const found = await back.call('GET', '/ops/v1/reconciliation?date=2026-03-20', { token: finance.token });
    expect(found.status).toBe(200);
    expect(found.body.differences).toEqual([
      expect.objectContaining({
        kind: 'payouts',
        problem: 'status_mismatch',
        reference: sent.body.receipt.id,
        destination: 'СБП · Сбербанк · +7 916 ***-**-67',
      }),
    ]);
  });
});
