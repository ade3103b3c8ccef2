/**
 * A shop takes a payment from the wallet, end to end (docs/decisions/merchants.md#merchants): a person at
 * the full level applies in 'Бизнес', an operator approves, the merchant makes a key and sets its
 * notification URL; the example shop (examples/shop) creates a payment and redirects the buyer to
 * /pay/m/<id>, who pays with the PIN and returns; the shop shows 'paid' after a verified notification;
 * the shop refunds half and the buyer's balance changes live; the merchant pays its balance out to its bank
 * account from the dashboard, with the PIN.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { browserBeside, createOperator, opsTest, signInOperator } from './backoffice-helpers.ts';
import { freePort } from './brand-server.ts';
import {
  colorScheme,
  levelUp,
  lightAndDark,
  PIN,
  registerPerson,
  rubBalance,
  signIn,
  topUp,
} from './wallet-fixtures.ts';

const test = opsTest('merchants', {});
test.use({ serviceWorkers: 'block' });
const SHOP = fileURLToPath(new URL('../../examples/shop/server.mjs', import.meta.url));
const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

async function shot(page: Page, name: string) {
  if (!process.env.SHOTS_DIR) return;
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${process.env.SHOTS_DIR}/merchants-${name}-${width}.png`, fullPage: true });
}

test('a shop takes a payment: apply, approve, key, pay from the redirect, paid, refund half live', async ({
  page,
  browser,
  request,
  ownServer,
}) => {
  // Two people, the shop, the back office and a short buyer read by axe in both themes and languages.
  test.setTimeout(240_000);
  const owner = await registerPerson(request, { firstName: 'Марина', lastName: 'Белова' });
  await levelUp(request, owner, 'simplified');
  await levelUp(request, owner, 'full');

  // The application in 'Бизнес', from Settings.
  await signIn(page, owner, '/settings');
  await page.getByTestId('settings-business').click();
  await expect(page.getByRole('heading', { name: 'Бизнес', level: 1 })).toBeVisible();
  const form = page.getByTestId('merchant-apply');
  await form.getByLabel('Название для покупателей').fill('Торты Марины');
  await form.getByLabel('ИНН').fill('500100732259');
  await form.getByLabel('Вид деятельности').selectOption('5462');
  await form.getByLabel('Сайт').fill('https://cakes.example.ru');
  await form.getByLabel('БИК банка').fill('044525225');
  await form.getByLabel('Расчётный счёт (20 цифр)').fill('40702810200000012345');
  await form.getByRole('button', { name: 'Отправить заявку' }).click();
  await expect(page.getByTestId('merchant-status')).toHaveText('Заявка на проверке');

  const merchantId = (await page.getByTestId('merchant-id').textContent()) ?? '';
  // An operator approves it in the back office's 'Магазины' queue.
  const compliance = await createOperator(ownServer, 'compliance');
  const opsPage = await browserBeside(browser, page);
  await signInOperator(opsPage, ownServer, compliance);
  await opsPage.getByRole('link', { name: 'Магазины' }).click();
  const application = opsPage.getByTestId('ops-merchant').filter({ hasText: 'Торты Марины' });
  await expect(application).toContainText('500100732259');
  await shot(opsPage, 'queue');
  await application.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(application).toHaveCount(0);
  await opsPage.context().close();
  await page.reload();
  await expect(page.getByTestId('merchant-status')).toHaveText('Подтверждён');

  // A key (shown once) and the shop's notification URL.
  const keys = page.getByTestId('merchant-keys');
  await keys.getByLabel('Название ключа').fill('Сайт');
  await keys.getByRole('button', { name: 'Создать ключ' }).click();
  const secretKey = (await page.getByTestId('merchant-key-secret').textContent()) ?? '';
  expect(secretKey).toMatch(/^sk_/);
  const shopPort = await freePort();
  const shopUrl = `http://127.0.0.1:${shopPort}`;
  const webhook = page.getByTestId('merchant-webhook');
  await webhook.getByLabel('Адрес для уведомлений (необязательно)').fill(`${shopUrl}/notifications`);
  await webhook.getByRole('button', { name: 'Сохранить' }).click();
  await expect(webhook.getByText('Сохранено')).toBeVisible();
  const webhookSecret = (await page.getByTestId('merchant-webhook-secret').textContent()) ?? '';

  let shop: ChildProcess | undefined;
  try {
    shop = spawn(process.execPath, [SHOP], {
      env: {
        ...process.env,
        WALLET_URL: ownServer.url,
        MERCHANT_ID: merchantId,
        SECRET_KEY: secretKey,
        WEBHOOK_SECRET: webhookSecret,
        PORT: String(shopPort),
      },
      stdio: 'ignore',
    });
    await expect.poll(async () => (await fetch(shopUrl).catch(() => null))?.status ?? 0).toBe(200);

    // The buyer, signed in to the wallet, buys at the shop and is sent to the wallet's page.
    const buyer = await registerPerson(request, { firstName: 'Иван', lastName: 'Петров' });
    await topUp(request, buyer, '2000');
    const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined, locale: 'ru-RU' });
    const buyerPage = await context.newPage();
    await signIn(buyerPage, buyer, '/');
    await buyerPage.goto(shopUrl);
    await buyerPage.getByRole('button', { name: 'Купить' }).click();
    await expect(buyerPage).toHaveURL(/\/pay\/m\/[0-9a-f-]{36}$/);
    const card = buyerPage.getByTestId('pay-merchant');
    await expect(buyerPage.getByTestId('pay-merchant-name')).toHaveText('Торты Марины');
    await expect(card).toContainText('Проверенный магазин');
    await expect(card).toContainText('ИНН 500100732259');
    await expect(card).toContainText('Торт «Наполеон»');
    await expect(buyerPage.getByTestId('pay-merchant-amount')).toHaveText(nbsp('1 500,00 ₽'));
    await shot(buyerPage, 'pay');
    await colorScheme(buyerPage, 'dark');
    await shot(buyerPage, 'pay-dark');
    await colorScheme(buyerPage, 'light');
    await card.getByRole('button', { name: 'Оплатить' }).click();
    const modal = buyerPage.getByRole('dialog');
    await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
    await buyerPage.keyboard.type(PIN);
    await modal.getByRole('button', { name: 'Подтвердить' }).click();
    await expect(modal.getByText('Оплачено')).toBeVisible();
    await modal.getByRole('button', { name: 'Готово' }).click();
    await expect(buyerPage.getByTestId('pay-merchant-status')).toHaveText('Оплачен');
    await buyerPage.getByTestId('pay-merchant-back').click();

    // Back at the shop: 'paid' once the signed notification came (the shop checks its signature).
    await expect(buyerPage).toHaveURL(new RegExp(`^${shopUrl}/orders/[0-9a-f]{8}\\?payment_id=`));
    await expect
      .poll(async () => {
        await buyerPage.reload();
        return buyerPage.locator('[data-status]').getAttribute('data-status');
      })
      .toBe('paid');
    expect(await rubBalance(request, buyer)).toBe('500.00');

    // The buyer watches the wallet while the shop refunds half: the balance changes live.
    const wallet = await context.newPage();
    await wallet.goto(`${ownServer.url}/`);
    const balance = wallet.getByTestId('account-balance').first();
    await expect(balance).toHaveText(nbsp('500,00 ₽'));
    await buyerPage.getByRole('button', { name: 'Вернуть половину' }).click();
    await expect
      .poll(async () => {
        await buyerPage.reload();
        return buyerPage.locator('[data-refund]').count();
      })
      .toBe(1);
    await expect(balance).toHaveText(nbsp('1 250,00 ₽'));

    // The merchant's dashboard: the balance, the payment and its delivered notifications.
    await page.reload();
    await expect(page.getByTestId('merchant-payments')).toContainText('Оплачен');
    await expect(page.getByTestId('merchant-payments')).toContainText('Иван П.');
    await expect(page.getByTestId('merchant-deliveries')).toContainText('payment.succeeded');
    await expect(page.getByTestId('merchant-balance')).toHaveText(nbsp('727,50 ₽'));
    await shot(page, 'dashboard');
    await colorScheme(page, 'dark');
    await shot(page, 'dashboard-dark');
    await colorScheme(page, 'light');

    // The merchant pays its balance out to its bank account, with the PIN; the bank pays it in.
    const settlement = page.getByTestId('merchant-settlement');
    await expect(settlement.getByTestId('merchant-settlement-available')).toHaveText(nbsp('727,50 ₽'));
    await expect(settlement).toContainText('Выводов ещё не было');
    await settlement.getByRole('button', { name: 'Вывести сейчас' }).click();
    const payOut = page.getByRole('dialog');
    await expect(payOut).toContainText('40702810200000012345');
    await expect(payOut.getByLabel('Цифра 1 из 4')).toBeFocused();
    await page.keyboard.type(PIN);
    await payOut.getByRole('button', { name: 'Подтвердить' }).click();
    await expect(payOut.getByText('Деньги отправлены в банк')).toBeVisible();
    await payOut.getByRole('button', { name: 'Готово' }).click();
    await expect(page.getByTestId('merchant-balance')).toHaveText(nbsp('0,00 ₽'));
    await expect(settlement.getByRole('button', { name: 'Вывести сейчас' })).toBeDisabled();
    // The sandbox bank answers in seconds, through the payout's job.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('merchant-settlements').textContent();
        },
        { timeout: 45_000 },
      )
      .toContain('зачислено');
    await expect(page.getByTestId('merchant-settlements')).toContainText(nbsp('727,50 ₽'));
    await shot(page, 'settled');

    // A buyer without the money learns it before any PIN, with the way to top up, in either language.
    const broke = await registerPerson(request, { firstName: 'Олег', lastName: 'Сидоров' });
    const brokeContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
    const brokePage = await brokeContext.newPage();
    await signIn(brokePage, broke, `/pay/shop/${merchantId}`);
    await brokePage.getByTestId('pay-shop').getByRole('textbox').first().fill('100');
    await brokePage.getByTestId('pay-shop').getByRole('button', { name: 'Продолжить' }).click();
    await expect(brokePage).toHaveURL(/\/pay\/m\/[0-9a-f-]{36}$/);
    const unpaid = brokePage.getByTestId('pay-merchant');
    await expect(unpaid.locator('[data-code="INSUFFICIENT_FUNDS"]')).toBeVisible();
    await expect(unpaid.getByRole('button', { name: 'Оплатить' })).toBeDisabled();
    await expect(unpaid.getByRole('link', { name: 'Пополнить кошелёк' })).toBeVisible();
    for (const language of ['ru', 'en'] as const) {
      await brokePage.evaluate((value) => localStorage.setItem('e-wallet-language', value), language);
      await brokePage.reload();
      await expect(unpaid.locator('[data-code="INSUFFICIENT_FUNDS"]')).toBeVisible();
      await lightAndDark(brokePage, async (scheme) => {
        await expectNoAxeViolations(brokePage, { serious: true });
        await shot(brokePage, `pay-short-${language}${scheme}`);
      });
      await colorScheme(brokePage, 'light');
    }
    await expect(unpaid.getByRole('link', { name: 'Top up the wallet' })).toBeVisible();
    await brokeContext.close();

    // The till's static QR: the buyer types the amount, pays with the PIN; the shop's balance has it.
    await buyerPage.goto(`${ownServer.url}/pay/shop/${merchantId}`);
    const till = buyerPage.getByTestId('pay-shop');
    await till.getByRole('textbox').first().fill('100');
    await shot(buyerPage, 'till');
    await till.getByRole('button', { name: 'Продолжить' }).click();
    await expect(buyerPage).toHaveURL(/\/pay\/m\/[0-9a-f-]{36}$/);
    await expect(buyerPage.getByTestId('pay-merchant-amount')).toHaveText(nbsp('100,00 ₽'));
    await buyerPage.getByTestId('pay-merchant').getByRole('button', { name: 'Оплатить' }).click();
    await buyerPage.keyboard.type(PIN);
    await buyerPage.getByRole('dialog').getByRole('button', { name: 'Подтвердить' }).click();
    await expect(buyerPage.getByRole('dialog').getByText('Оплачено')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('merchant-balance')).toHaveText(nbsp('98,50 ₽'));
    await context.close();
  } finally {
    shop?.kill();
  }
});
