/**
 * Documents through the API: the receipt of every kind of operation (JSON and PDF, by the history's
 * id and by a money call's), another person's operation answered as a missing one, statements whose
 * arithmetic is checked against the ledger (CSV parsed back, PDF text extracted with pdftotext), and
 * the public verify page for a real, an altered and an unknown code.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { walletQrText } from '@e-wallet/contract';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { opaqueIds } from '../src/http/opaque-id.ts';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { started, submitCard } from './topup-helpers.ts';
import {
  GOST_ACCOUNT as ACC,
  GOST_BIC as BIC,
  GOST_CORR as CORR,
  GOOD_CARD,
  key,
  type Person,
  PIN,
  person,
  withdraw,
} from './withdrawal-helpers.ts';

const DAY1 = Date.parse('2026-03-10T09:00:00Z');
const DAY2 = Date.parse('2026-03-11T09:00:00Z');

/** The text pdftotext (poppler-utils) reads from a PDF. */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

describe(`documents (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(DAY1);
  let ivan: Person;
  let petr: Person;
  /** Ids as the app has them: the money call's receipt id and the history row's id, by operation. */
  const ops: Record<string, { receiptId?: string; historyId?: string }> = {};

  const get = (who: Person, url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers: { authorization: `Token ${who.token}`, ...headers } });

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VERIFY_PER_ADDRESS_PER_MINUTE: '40' } });
    ivan = await person(server, { rub: 100_000n });
    petr = await person(server);

    // Day 2: one operation of every kind.
    clock.set(new Date(DAY2));
    const { order, url } = await started(server, ivan.token, '500.00');
    expect((await submitCard(server, url, { card: GOOD_CARD, action: 'pay' })).statusCode).toBe(303);
    ops.topup = { receiptId: order };
    clock.advance(60_000);

    const withdrawal = await withdraw(server, ivan, { amount: '300.50' }, key());
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(200);
    ops.withdrawal = { receiptId: withdrawal.body.receipt.id };
    clock.advance(60_000);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    clock.advance(60_000);

    const sent = await server.call('POST', '/v2/wallet/transfer', {
      token: ivan.token,
      body: { phone: petr.phone, amount: '100.00', currency_code: 'RUB', pin: PIN },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    ops.transferOut = { receiptId: sent.body.receipt.id };
    clock.advance(60_000);

    const paid = await server.call('POST', '/v2/wallet/payment/qr', {
      token: ivan.token,
      body: { qr: walletQrText(petr.phone, '120.50'), currency_code: 'RUB', pin: PIN },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    ops.qrPayment = { receiptId: paid.body.receipt.id };
    clock.advance(60_000);

    const gost = `ST00012|Name=ООО «Три кита»|PersonalAcc=${ACC}|BankName=ПАО Сбербанк|BIC=${BIC}|CorrespAcc=${CORR}|Sum=4500`;
    const bank = await server.call('POST', '/v2/wallet/payment/qr', {
      token: ivan.token,
      body: { qr: gost, currency_code: 'RUB', pin: PIN },
    });
    expect(bank.status, JSON.stringify(bank.body)).toBe(200);
    ops.bankPayment = { receiptId: bank.body.receipt.id };
    clock.advance(60_000);
    await runPayoutWorkerOnce(server.ctx);
    clock.advance(60_000);

    // The history's ids of the same operations.
    const history = await server.call('GET', '/v2/wallet/transaction?limit=100', { token: ivan.token });
    const rows = history.body.results as { id: string; kind: string; amount: string }[];
    const find = (kind: string, amount: string) =>
      rows.find((r) => r.kind === kind && r.amount === amount)!.id;
    ops.topup.historyId = find('topup', '500.00');
    ops.withdrawal.historyId = find('withdrawal', '-300.50');
    ops.transferOut.historyId = find('transfer', '-100.00');
    ops.qrPayment.historyId = find('payment', '-120.50');
    ops.bankPayment.historyId = find('payment', '-45.00');
    const received = await server.call('GET', '/v2/wallet/transaction', { token: petr.token });
    ops.transferIn = {
      historyId: (received.body.results as { id: string; kind: string }[]).find((r) => r.kind === 'transfer')!
        .id,
    };
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  it('answers the receipt of every kind of operation by the history id and by the money call id', async () => {
    const expected: Record<string, object> = {
      topup: { kind: 'topup', direction: 'in', amount: '500.00', status: 'complete', counterparty: null },
      withdrawal: {
        kind: 'withdrawal',
        direction: 'out',
        amount: '-300.50',
        status: 'complete',
        counterparty: '411111******1111',
      },
      transferOut: { kind: 'transfer', direction: 'out', amount: '-100.00', counterparty: 'Иван П.' },
      qrPayment: { kind: 'payment', direction: 'out', amount: '-120.50', counterparty: 'Иван П.' },
      bankPayment: { direction: 'out', amount: '-45.00', counterparty: 'ООО «Три кита»' },
    };
    for (const [name, shape] of Object.entries(expected)) {
      const { receiptId, historyId } = ops[name]!;
      const byHistory = await server.call('GET', `/v2/wallet/transaction/${historyId}/receipt`, {
        token: ivan.token,
      });
      expect(byHistory.status, `${name}: ${JSON.stringify(byHistory.body)}`).toBe(200);
      expect(byHistory.body, name).toMatchObject({ ...shape, currency_code: 'RUB', fee: '0.00' });
      expect(byHistory.body.id).toBe(historyId);
      expect(byHistory.body.verify_url).toMatch(/^http:\/\/[^/]+\/verify\/[A-Za-z0-9_-]{44}$/);
      const byReceipt = await server.call('GET', `/v2/wallet/transaction/${receiptId}/receipt`, {
        token: ivan.token,
      });
      expect(byReceipt.status, name).toBe(200);
      expect(byReceipt.body, name).toEqual(byHistory.body);
    }
    const incoming = await server.call('GET', `/v2/wallet/transaction/${ops.transferIn!.historyId}/receipt`, {
      token: petr.token,
    });
    expect(incoming.body).toMatchObject({
      kind: 'transfer',
      direction: 'in',
      amount: '100.00',
      counterparty: 'Иван П.',
      balance_after: '100.00',
    });
    // Balances after: 1000 + 500 - 300.50 - 100 - 120.50 - 45 = 934.00 at the end.
    const last = await server.call('GET', `/v2/wallet/transaction/${ops.bankPayment!.historyId}/receipt`, {
      token: ivan.token,
    });
    expect(last.body.balance_after).toBe('934.00');
    const english = await server.call('GET', `/v2/wallet/transaction/${ops.transferOut!.historyId}/receipt`, {
      token: ivan.token,
      headers: { 'accept-language': 'en' },
    });
    expect(english.body.description).toBe('Transfer to Ivan P.');
  });

  it('answers another person’s operation exactly as a missing one', async () => {
    const foreign = await server.call('GET', `/v2/wallet/transaction/${ops.withdrawal!.historyId}/receipt`, {
      token: petr.token,
    });
    const foreignPayout = await server.call(
      'GET',
      `/v2/wallet/transaction/${ops.withdrawal!.receiptId}/receipt`,
      {
        token: petr.token,
      },
    );
    const missing = await server.call('GET', `/v2/wallet/transaction/${randomUUID()}/receipt`, {
      token: petr.token,
    });
    for (const answer of [foreign, foreignPayout, missing]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({
        status: 'error',
        code: 'OPERATION_NOT_FOUND',
        message: 'Операция не найдена',
      });
    }
    // An entry's UUID (the id money notifications and history cursors carry) names the same operation.
    const { rows } = await server.ctx.db.query<{ id: string }>(
      `SELECT id::text FROM ledger_entries WHERE transfer_id = $1 AND user_id = $2 AND phase = 'single'`,
      [ops.transferOut!.historyId, ivan.userId],
    );
    const byEntry = await server.call(
      'GET',
      `/v2/wallet/transaction/${opaqueIds(server.config).entryUuid(rows[0]!.id)}/receipt`,
      {
        token: ivan.token,
      },
    );
    expect(byEntry.body).toMatchObject({ id: ops.transferOut!.historyId, amount: '-100.00' });
    const foreignEntry = await server.call(
      'GET',
      `/v2/wallet/transaction/${opaqueIds(server.config).entryUuid(rows[0]!.id)}/receipt`,
      {
        token: petr.token,
      },
    );
    expect(foreignEntry.status).toBe(404);
    expect(foreignEntry.body.code).toBe('OPERATION_NOT_FOUND');
    const pdf = await get(petr, `/v2/wallet/transaction/${ops.withdrawal!.historyId}/receipt?format=pdf`);
    expect(pdf.statusCode).toBe(404);
    const bad = await server.call('GET', '/v2/wallet/transaction/not-an-id/receipt', { token: petr.token });
    expect(bad.status).toBe(400);
    const format = await server.call('GET', `/v2/wallet/transaction/${randomUUID()}/receipt?format=doc`, {
      token: petr.token,
    });
    expect(format.status).toBe(400);
    const anonymous = await server.call('GET', `/v2/wallet/transaction/${ops.withdrawal!.historyId}/receipt`);
    expect(anonymous.status).toBe(401);
  });

  it('writes each receipt as a PDF with the amounts, the operator and the verify link', async () => {
    const amounts: Record<string, string> = {
      topup: '500,00',
      withdrawal: '300,50',
      transferOut: '100,00',
      qrPayment: '120,50',
      bankPayment: '45,00',
    };
    for (const [name, amount] of Object.entries(amounts)) {
      const answer = await get(ivan, `/v2/wallet/transaction/${ops[name]!.historyId}/receipt?format=pdf`);
      expect(answer.statusCode, name).toBe(200);
      expect(answer.headers['content-type']).toBe('application/pdf');
      expect(answer.headers['content-disposition']).toContain('receipt-');
      const text = pdfText(answer.rawPayload);
      expect(text, name).toContain('Квитанция об операции');
      expect(text, name).toContain('ООО «Е-Кошелёк»');
      expect(text, name).toContain(amount);
      expect(text, name).toContain('Страница 1');
      const json = await server.call('GET', `/v2/wallet/transaction/${ops[name]!.historyId}/receipt`, {
        token: ivan.token,
      });
      expect(text.replace(/\s+/g, ''), name).toContain(json.body.verify_url);
    }
    const incoming = await get(
      petr,
      `/v2/wallet/transaction/${ops.transferIn!.historyId}/receipt?format=pdf`,
    );
    expect(pdfText(incoming.rawPayload)).toContain('100,00');
  });

  /** The account's posted money moved in a period, and its balance before and after, from the ledger. */
  async function ledgerFigures(accountId: string, from: string, to: string) {
    const { rows } = await server.ctx.db.query<{
      sum: bigint | null;
      count: number;
      before: bigint;
      after: bigint;
    }>(
      `SELECT sum(amount)::bigint AS sum, count(*)::integer AS count,
         coalesce((SELECT balance_after FROM ledger_entries WHERE account_id = $1 AND created_at < $2
                   ORDER BY account_version DESC LIMIT 1), 0) AS before,
         coalesce((SELECT balance_after FROM ledger_entries WHERE account_id = $1 AND created_at < $3
                   ORDER BY account_version DESC LIMIT 1), 0) AS after
       FROM ledger_entries WHERE account_id = $1 AND created_at >= $2 AND created_at < $3
         AND phase IN ('single', 'post')`,
      [accountId, from, to],
    );
    return rows[0]!;
  }

  const minor = (text: string) =>
    BigInt(
      text
        .replace(',', '.')
        .replace('.', '')
        .replace(/^(-?)0+(?=\d)/, '$1'),
    );

  it('adds up a statement over a period with every kind of operation, to the kopeck, as the ledger does', async () => {
    const wallet = await server.call('GET', '/v2/wallet', { token: ivan.token });
    const account = wallet.body.results[0].accounts.find(
      (a: { currency_code: string }) => a.currency_code === 'RUB',
    );
    const url = `/v2/wallet/statement?account=${account.id}&date_from=2026-03-11&date_to=2026-03-11&format=csv`;
    const answer = await get(ivan, url);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parse(answer.rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(Object.keys(rows[0]!)).toEqual([
      'Дата и время (МСК)',
      'Операция',
      'Тип',
      'Сумма',
      'Валюта',
      'Остаток',
      'Номер операции',
    ]);
    const opening = rows[0]!;
    expect(opening.Операция).toBe('Входящий остаток');
    expect(opening.Остаток).toBe('1000,00');
    const closing = rows[rows.length - 1]!;
    expect(closing.Операция).toBe('Исходящий остаток');
    const operations = rows.slice(1, -3);
    // Top-up, withdrawal (posted when paid out), transfer, QR payment, bank payment.
    expect(operations.map((row) => row.Сумма)).toEqual(['500,00', '-300,50', '-100,00', '-120,50', '-45,00']);
    expect(new Set(operations.map((row) => row.Тип))).toEqual(
      new Set(['Пополнение', 'Вывод', 'Перевод', 'Оплата']),
    );
    let running = minor(opening.Остаток!);
    for (const row of operations) {
      running += minor(row.Сумма!);
      expect(minor(row.Остаток!)).toBe(running);
    }
    expect(minor(closing.Остаток!)).toBe(running);
    const totalIn = rows[rows.length - 3]!;
    const totalOut = rows[rows.length - 2]!;
    expect(totalIn.Сумма).toBe('500,00');
    expect(totalOut.Сумма).toBe('-566,00');
    expect(minor(opening.Остаток!) + minor(totalIn.Сумма!) + minor(totalOut.Сумма!)).toBe(
      minor(closing.Остаток!),
    );

    const ledger = await ledgerFigures(account.id, '2026-03-11T00:00:00Z', '2026-03-12T00:00:00Z');
    expect(BigInt(ledger.before)).toBe(minor(opening.Остаток!));
    expect(BigInt(ledger.after)).toBe(minor(closing.Остаток!));
    expect(BigInt(ledger.sum ?? 0)).toBe(running - minor(opening.Остаток!));
    expect(ledger.count).toBe(operations.length);
    expect(closing.Остаток).toBe('934,00');

    // Both days: the opening is zero and the first funding is an operation.
    const both = await get(ivan, url.replace('date_from=2026-03-11', 'date_from=2026-03-10'));
    const all = parse(both.rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(all[0]!.Остаток).toBe('0,00');
    expect(all.slice(1, -3).map((row) => row.Сумма)[0]).toBe('1000,00');
    expect(all[all.length - 1]!.Остаток).toBe('934,00');

    // A quiet period carries the balance through.
    const later = await get(ivan, url.replace(/2026-03-11/g, '2026-03-20'));
    const quiet = parse(later.rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(quiet.map((row) => row.Остаток)).toEqual(['934,00', '', '', '934,00']);

    // English: commas and decimal points.
    const english = await get(ivan, url, { 'accept-language': 'en' });
    const en = parse(english.rawPayload, { bom: true, columns: true }) as Record<string, string>[];
    expect(en[0]).toMatchObject({ Operation: 'Opening balance', Balance: '1000.00' });
    expect(en[en.length - 1]).toMatchObject({ Operation: 'Closing balance', Balance: '934.00' });
  });

  it('writes a statement as a PDF with the amounts, the header and page numbers', async () => {
    const wallet = await server.call('GET', '/v2/wallet', { token: ivan.token });
    const account = wallet.body.results[0].accounts[0];
    const answer = await get(
      ivan,
      `/v2/wallet/statement?account=${account.id}&date_from=2026-03-10&date_to=2026-03-11&format=pdf`,
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const text = pdfText(answer.rawPayload);
    for (const needle of [
      'Выписка по счёту',
      'ООО «Е-Кошелёк»',
      'Страница 1',
      'Входящий остаток',
      'Исходящий остаток',
      '1 000,00',
      '−300,50',
      '−120,50',
      '934,00',
      'Пополнение с банковской карты',
      'Вывод на карту 411111******1111',
    ])
      expect(text, needle).toContain(needle);
  });

  it('refuses a bad statement request with a clear error, and another person’s account as a missing one', async () => {
    const wallet = await server.call('GET', '/v2/wallet', { token: ivan.token });
    const account = wallet.body.results[0].accounts[0].id;
    const ask = (who: Person, query: string) =>
      server.call('GET', `/v2/wallet/statement?${query}`, { token: who.token });
    const reversed = await ask(ivan, `account=${account}&date_from=2026-03-12&date_to=2026-03-11&format=csv`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.code).toBe('STATEMENT_PERIOD_INVALID');
    expect(reversed.body.message).toContain('366');
    const tooLong = await ask(ivan, `account=${account}&date_from=2024-01-01&date_to=2026-03-11&format=csv`);
    expect(tooLong.body.code).toBe('STATEMENT_PERIOD_INVALID');
    const foreign = await ask(petr, `account=${account}&date_from=2026-03-11&date_to=2026-03-11&format=csv`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('ACCOUNT_NOT_FOUND');
    const format = await ask(ivan, `account=${account}&date_from=2026-03-11&date_to=2026-03-11&format=xls`);
    expect(format.status).toBe(400);
    expect(format.body.status).toBe('error');
    const noAccount = await ask(ivan, 'date_from=2026-03-11&date_to=2026-03-11&format=csv');
    expect(noAccount.status).toBe(400);
  });

  it('confirms a real receipt on the public page, and refuses an altered or unknown code with 404', async () => {
    const receipt = await server.call('GET', `/v2/wallet/transaction/${ops.transferOut!.historyId}/receipt`, {
      token: ivan.token,
    });
    const path = new URL(receipt.body.verify_url).pathname;
    const page = await server.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Квитанция подлинная');
    expect(page.body).toContain('100,00');
    expect(page.body).toContain('Иван П.');
    expect(page.body).toContain('ООО «Е-Кошелёк»');
    // Nothing beyond the receipt: no balance, no account.
    expect(page.body).not.toContain('934');
    expect(page.body).not.toContain(receipt.body.account);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.body).not.toContain('<script');

    // The recipient's receipt of the same transfer has its own code.
    const incoming = await server.call('GET', `/v2/wallet/transaction/${ops.transferIn!.historyId}/receipt`, {
      token: petr.token,
    });
    expect(incoming.body.verify_url).not.toBe(receipt.body.verify_url);
    expect(
      (await server.app.inject({ method: 'GET', url: new URL(incoming.body.verify_url).pathname }))
        .statusCode,
    ).toBe(200);

    const code = path.split('/').pop()!;
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    for (const forged of [
      flip(code, 3),
      flip(code, 20),
      flip(code, 40),
      'x'.repeat(44),
      'short',
      `${code}A`,
    ]) {
      const answer = await server.app.inject({ method: 'GET', url: `/verify/${forged}` });
      expect(answer.statusCode, forged).toBe(404);
      expect(answer.body).toContain('Квитанция не найдена');
      expect(answer.body).not.toContain('100,00');
    }
  });

  it('limits checks per client address', async () => {
    const receipt = await server.call('GET', `/v2/wallet/transaction/${ops.topup!.historyId}/receipt`, {
      token: ivan.token,
    });
    const path = new URL(receipt.body.verify_url).pathname;
    clock.advance(120_000);
    const statuses: number[] = [];
    for (let i = 0; i < 42; i++)
      statuses.push(
        (await server.app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.7' })).statusCode,
      );
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(40)).toEqual([429, 429]);
    const other = await server.app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.8' });
    expect(other.statusCode).toBe(200);
    clock.advance(61_000);
    expect(
      (await server.app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.7' })).statusCode,
    ).toBe(200);
  });

  it('never signs with another server’s key', async () => {
    const other = await startTestServer({ env: { RECEIPT_KEY: 'another-receipt-key-0123456789' } });
    try {
      const receipt = await server.call('GET', `/v2/wallet/transaction/${ops.topup!.historyId}/receipt`, {
        token: ivan.token,
      });
      const answer = await other.app.inject({
        method: 'GET',
        url: new URL(receipt.body.verify_url).pathname,
      });
      expect(answer.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});
