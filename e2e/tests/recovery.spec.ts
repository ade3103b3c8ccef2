/**
 * Recovery removes what a thief added (issue 53, finding 5), in real Chromium on a phone and a desktop:
 * a passkey added in Settings (as a thief with the session and the PIN would) is suspended by the freeze;
 * after unfreezing with a fresh code and the PIN, Settings shows the passkeys and sign-ins with dates
 * and devices, the suspended one marked, to keep or remove; the lock no longer offers it. axe in the
 * light and the dark theme.
 */
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { passkeyTest as test, virtualAuthenticator } from './passkey-server.ts';
import { lightAndDark, PIN, registerPerson, signIn } from './wallet-fixtures.ts';

// A server of its own starts per test (passkey-server.ts): slower than the shared one's.
test.describe.configure({ timeout: 480_000 });

async function typeDigits(page: Page, where: Locator, firstBox: string, digits: string) {
  await where.getByRole('textbox', { name: firstBox, exact: true }).click();
  await page.keyboard.type(digits);
}

async function outbox(request: APIRequestContext, phone: string): Promise<{ code: string }[]> {
  const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  return (await answer.json()).results as { code: string }[];
}

test('after unfreezing, the person sees the suspended passkey with its date and device, and removes it', async ({
  page,
  request,
}) => {
  await virtualAuthenticator(page);
  const person = await registerPerson(request, { firstName: 'Нина', lastName: 'Ключева' });
  await signIn(page, person, '/settings');
  const width = page.viewportSize()?.width;

  // A passkey added with the session and the PIN, as the thief did.
  const passkeys = page.getByTestId('passkeys');
  await passkeys.getByRole('button', { name: 'Добавить ключ доступа' }).click();
  await typeDigits(page, passkeys.getByTestId('pin-step'), 'Цифра 1 из 4', PIN);
  await passkeys.getByRole('button', { name: 'Продолжить' }).click();
  await expect(passkeys.getByRole('status')).toHaveText('Ключ доступа добавлен');

  // 'Заблокировать кошелёк', then the unfreeze with a fresh code and the PIN.
  const security = page.locator('#security');
  await security.getByRole('button', { name: 'Заблокировать кошелёк' }).click();
  await page
    .getByRole('dialog', { name: 'Заблокировать кошелёк?' })
    .getByRole('button', { name: 'Заблокировать', exact: true })
    .click();
  const frozen = page.getByRole('dialog', { name: 'Кошелёк заблокирован' });
  await expect(frozen.getByRole('status')).toContainText('Исходящие операции недоступны');
  await frozen.getByRole('button', { name: 'Закрыть' }).first().click();
  const form = page.getByTestId('unfreeze-form');
  await expect(form).toBeVisible();
  const before = (await outbox(request, person.phone)).length;
  await form.getByRole('button', { name: 'Получить код' }).click();
  await expect.poll(async () => (await outbox(request, person.phone)).length).toBe(before + 1);
  const code = (await outbox(request, person.phone))[0]!.code;
  await typeDigits(page, form, 'Цифра 1 из 4 кода', code);
  await typeDigits(page, form, 'Цифра 1 из 4 PIN-кода', PIN);
  await form.getByRole('button', { name: 'Разблокировать' }).click();
  await expect(security.getByRole('status')).toHaveText('Кошелёк разблокирован');

  // The review: the passkey suspended, with when and on what device it was added; the sign-ins.
  const review = page.getByTestId('recovery-review');
  await expect(review.getByRole('heading', { name: 'Проверьте ключи доступа и входы' })).toBeVisible();
  const key = review.getByTestId('passkey');
  await expect(key).toHaveCount(1);
  await expect(key).toContainText('Приостановлен при блокировке');
  await expect(key).toContainText('Добавлен на устройстве: Chrome');
  await expect(key).toContainText('Добавлен ');
  await expect(key.getByRole('button', { name: /^Оставить ключ доступа: / })).toBeVisible();
  await expect(review.getByTestId('session')).toHaveCount(1);
  await expect(review.getByTestId('session')).toContainText('Это устройство');
  await review.scrollIntoViewIfNeeded();
  await lightAndDark(page, async (scheme) => {
    await expectNoAxeViolations(page, { serious: true });
    await review.screenshot({
      path: `${process.env.SHOTS_DIR ?? '/tmp/shots'}/recovery-review-${width}${scheme}.png`,
    });
  });

  // Removed, it is gone, and the review with it.
  await key.getByRole('button', { name: /^Удалить ключ доступа: / }).click();
  await expect(review).toHaveCount(0);
  await expect(passkeys.getByText('Ключей доступа пока нет')).toBeVisible();
});
