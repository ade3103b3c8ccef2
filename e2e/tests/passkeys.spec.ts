/**
 * Passkeys in real Chromium with a virtual authenticator (DevTools protocol: WebAuthn.enable,
 * WebAuthn.addVirtualAuthenticator), on a phone and a desktop: a passkey is added in Settings after the
 * PIN (a wrong PIN creates nothing), the
 * inactivity lock then opens with it instead of the PIN (the server checks the signature), and it
 * can be removed; a money operation is confirmed with it instead of the PIN. WebAuthn needs a domain, not an IP address: this server of its own answers at
 * http://localhost:<port> and has that as its PUBLIC_URL (the relying party).
 */
import { expect, type Page } from '@playwright/test';
import { passkeyTest as test, virtualAuthenticator } from './passkey-server.ts';
import { PIN, registerPerson, rubBalance, signIn, topUp, upgradeToSimplified } from './wallet-fixtures.ts';

/** Types a PIN into the PIN step's boxes, as a person does. */
async function typePin(page: Page, pin: string) {
  await page.getByTestId('pin-step').getByRole('textbox', { name: 'Цифра 1 из 4' }).click();
  await page.keyboard.type(pin);
}

const lockDialog = (page: Page) => page.getByRole('dialog', { name: 'Приложение заблокировано' });

test('a passkey added in Settings unlocks the app instead of the PIN, and can be removed', async ({
  page,
  request,
}) => {
  const authenticator = await virtualAuthenticator(page);
  const person = await registerPerson(request, { firstName: 'Вера', lastName: 'Ключева' });
  await page.clock.install();
  await signIn(page, person, '/settings');

  const panel = page.getByTestId('passkeys');
  await expect(panel.getByRole('heading', { name: 'Ключи доступа' })).toBeVisible();
  await expect(panel.getByText('Ключей доступа пока нет')).toBeVisible();
  // The session alone adds nothing: the PIN first (a wrong one is refused and nothing is created).
  await panel.getByRole('button', { name: 'Добавить ключ доступа' }).click();
  await expect(panel.getByText('Чтобы добавить ключ доступа, введите PIN-код')).toBeVisible();
  const continueButton = panel.getByRole('button', { name: 'Продолжить' });
  await expect(continueButton).toBeDisabled();
  await typePin(page, '9999');
  await continueButton.click();
  await expect(panel.getByRole('alert')).toHaveText('Неверный PIN-код. Осталось попыток: 4');
  expect(await authenticator.credentials()).toHaveLength(0);
  if (process.env.SHOTS_DIR)
    await panel.screenshot({ path: `${process.env.SHOTS_DIR}/passkey-pin-${test.info().project.name}.png` });
  await typePin(page, PIN);
  await continueButton.click();
  await expect(panel.getByRole('status')).toHaveText('Ключ доступа добавлен');
  await expect(panel.getByTestId('pin-step')).toHaveCount(0);
  await expect(panel.getByTestId('passkey')).toHaveCount(1);
  const [credential] = await authenticator.credentials();
  expect(credential?.rpId).toBe('localhost');
  if (process.env.SHOTS_DIR)
    await panel.screenshot({ path: `${process.env.SHOTS_DIR}/passkeys-${test.info().project.name}.png` });

  // 15 minutes without activity: the lock offers the passkey beside the PIN.
  await page.clock.fastForward('15:01');
  const dialog = lockDialog(page);
  await expect(dialog).toBeVisible();
  const unlock = dialog.getByRole('button', { name: 'Разблокировать ключом доступа' });
  await expect(unlock).toBeVisible();
  if (process.env.SHOTS_DIR)
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/lock-passkey-${test.info().project.name}.png` });
  await unlock.click();
  await expect(dialog).toHaveCount(0);
  // The authenticator really signed: its counter moved.
  expect((await authenticator.credentials())[0]!.signCount).toBeGreaterThan(credential!.signCount);
  await expect(panel.getByTestId('passkey')).toContainText('Использован');

  // Removed, it no longer unlocks: the lock asks for the PIN only.
  await panel.getByRole('button', { name: /^Удалить ключ доступа: / }).click();
  await expect(panel.getByText('Ключей доступа пока нет')).toBeVisible();
  await page.clock.fastForward('15:01');
  await expect(lockDialog(page)).toBeVisible();
  await expect(lockDialog(page).getByRole('button', { name: 'Разблокировать ключом доступа' })).toHaveCount(
    0,
  );
});

test('a transfer is confirmed with a passkey instead of the PIN', async ({ page, request }) => {
  await virtualAuthenticator(page);
  const [sender, recipient] = await Promise.all([
    registerPerson(request, { firstName: 'Олег', lastName: 'Ключников' }),
    registerPerson(request, { firstName: 'Анна', lastName: 'Смирнова' }),
  ]);
  await Promise.all([upgradeToSimplified(request, sender), upgradeToSimplified(request, recipient)]);
  await topUp(request, sender, '1000');
  await signIn(page, sender, '/settings');
  const panel = page.getByTestId('passkeys');
  await panel.getByRole('button', { name: 'Добавить ключ доступа' }).click();
  await typePin(page, PIN);
  await panel.getByRole('button', { name: 'Продолжить' }).click();
  await expect(panel.getByTestId('passkey')).toHaveCount(1);

  await page.goto('/wallet/save');
  await page.getByLabel('Сумма', { exact: true }).fill('250');
  await page.getByLabel('Телефон получателя').fill(recipient.national);
  await expect(page.getByTestId('recipient-card')).toContainText('Анна С.');
  await page.getByRole('button', { name: 'Перевести' }).click();
  const modal = page.getByRole('dialog', { name: 'Перевод' });
  const withPasskey = modal.getByRole('button', { name: 'Подтвердить ключом доступа' });
  await expect(withPasskey).toBeVisible();
  if (process.env.SHOTS_DIR)
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/pay-passkey-${test.info().project.name}.png` });
  await withPasskey.click();
  await expect(modal.getByText('Перевод выполнен')).toBeVisible();
  expect(await rubBalance(request, recipient)).toBe('250.00');
});
