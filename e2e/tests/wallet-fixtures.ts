/**
 * People and money for the wallet browser tests, through the real API only: register (code from
 * the sandbox SMS outbox), confirm, set the PIN; top up on the sandbox payment page with the
 * always-successful test card; pay another user by their receive QR. The token then goes into
 * localStorage the way the app's session store persists it.
 */
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const PIN = '2468';
export const GOOD_CARD = '4111111111111111';

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  national: string;
  phone: string;
  token: string;
}

function newNational(): string {
  return `999${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
}

/** The current terms' version, which a registration accepts (docs/decisions/account.md#a-persons-account). */
export async function termsVersion(request: APIRequestContext): Promise<string> {
  const answer = await request.get('/v2/wallet/terms');
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { version: string }).version;
}

async function latestCode(request: APIRequestContext, phone: string): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
      code = (await answer.json()).results?.[0]?.code ?? '';
      return code;
    })
    .toMatch(/^\d{4}$/);
  return code;
}

export async function registerPerson(
  request: APIRequestContext,
  names: { firstName?: string; lastName?: string } = {},
): Promise<Person> {
  const national = newNational();
  const phone = `+7${national}`;
  const person = {
    firstName: names.firstName ?? 'Мария',
    lastName: names.lastName ?? 'Соколова',
    email: `maria.${national}@example.ru`,
    national,
    phone,
  };
  const started = await request.post('/v2/wallet/auth/register', {
    data: {
      first_name: person.firstName,
      last_name: person.lastName,
      phone,
      email: person.email,
      terms_version: await termsVersion(request),
    },
  });
  expect(started.ok(), await started.text()).toBe(true);
  const code = await latestCode(request, phone);
  const confirmed = await request.post('/v2/wallet/auth/register/phone/confirm', {
    data: { phone, confirm_code: code },
  });
  expect(confirmed.ok(), await confirmed.text()).toBe(true);
  const { auth_token: token } = (await confirmed.json()) as { auth_token: string };
  const pin = await request.post('/v2/wallet/auth/register/set/pin', {
    data: { pin_code: PIN },
    headers: { Authorization: `Token ${token}` },
  });
  expect(pin.ok(), await pin.text()).toBe(true);
  return { ...person, token };
}

/** The API's token header for a person. */
export const auth = (person: Person) => ({ Authorization: `Token ${person.token}` });

export async function rubBalance(request: APIRequestContext, person: Person): Promise<string> {
  const answer = await request.get('/v2/wallet', { headers: auth(person) });
  const accounts = (await answer.json()).results[0].accounts as { currency_code: string; balance: string }[];
  return accounts.find((account) => account.currency_code === 'RUB')?.balance ?? '';
}

/** A real top-up: an order, the sandbox payment page paid with the test card, the signed webhook credits. */
export async function topUp(request: APIRequestContext, person: Person, amount: string): Promise<void> {
  const before = await rubBalance(request, person);
  const order = await request.post('/v2/wallet/top-up', {
    data: { amount, currency_code: 'RUB' },
    headers: { ...auth(person), 'Idempotency-Key': randomUUID() },
  });
  expect(order.ok(), await order.text()).toBe(true);
  const { url } = (await order.json()) as { url: string };
  const paid = await request.post(new URL(url, 'http://localhost').pathname, {
    form: { card: GOOD_CARD, action: 'pay' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
  await expect.poll(() => rubBalance(request, person)).not.toBe(before);
}

/**
 * A GOST R 56042-2014 payment QR to a company's bank account (Sberbank's published BIC and
 * correspondent account; the account number carries a valid control key for that BIC).
 */
export function merchantQr(name = 'ООО «Три кита»'): string {
  return `ST00012|Name=${name}|PersonalAcc=40702810200000012345|BankName=ПАО Сбербанк|BIC=044525225|CorrespAcc=30101810400000000225`;
}

/** Pays a merchant's QR: money leaves the payer's RUB account (an anonymous user may pay merchants). */
export async function payMerchant(request: APIRequestContext, payer: Person, amount: string): Promise<void> {
  const paid = await request.post('/v2/wallet/payment/qr', {
    data: { qr: merchantQr(), amount, currency_code: 'RUB', pin: PIN },
    headers: { ...auth(payer), 'Idempotency-Key': randomUUID() },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  // The payout to the bank settles after the sandbox's short delay; statistics count settled money.
  await expect
    .poll(async () => {
      const page = await request.get('/v2/wallet/transaction', { headers: auth(payer) });
      const results = (await page.json()).results as { kind: string; status: string }[];
      return results.find((transaction) => transaction.kind === 'payment')?.status ?? 'missing';
    })
    .toBe('complete');
}

/** Signs the browser in as the person: the token where the session store keeps it. */
export async function signIn(page: Page, person: Person, path = '/'): Promise<void> {
  await page.goto('/auth');
  await page.evaluate((token) => {
    localStorage.setItem('e-wallet-session', JSON.stringify({ state: { authToken: token }, version: 0 }));
  }, person.token);
  await page.goto(path);
}

/** Simplified identification through the sandbox KYC form (a valid test INN), then waits for the level. */
export function upgradeToSimplified(request: APIRequestContext, person: Person): Promise<void> {
  return levelUp(request, person, 'simplified');
}

/** One identification level up through the sandbox KYC form, then waits for `level`. */
export async function levelUp(
  request: APIRequestContext,
  person: Person,
  level: 'simplified' | 'full',
): Promise<void> {
  const headers = { Authorization: `Token ${person.token}` };
  const started = await request.post('/v2/wallet/identification-level/upgrade', { headers, data: {} });
  expect(started.ok(), await started.text()).toBe(true);
  const { verification_url: url } = (await started.json()) as { verification_url: string };
  const decided = await request.post(new URL(url, 'http://localhost').pathname, {
    form: {
      action: 'approve',
      document_type: 'inn',
      document_number: '500100732259',
      full_name: `${person.lastName} ${person.firstName} Ивановна`,
      birth_date: '1990-05-17',
    },
    maxRedirects: 0,
  });
  expect(decided.status(), await decided.text()).toBeLessThan(400);
  await expect
    .poll(async () => {
      const info = await request.get('/v2/wallet/auth/info', { headers });
      return (await info.json()).identification_level?.name;
    })
    .toBe(level);
}

/** Shows the profile panel: on a phone it opens from the header's profile button, on a desktop it is there. */
export async function openProfilePanel(page: Page): Promise<void> {
  const open = page.getByRole('button', { name: /^(Открыть профиль|Open profile)$/ });
  await expect(open.or(page.getByTestId('profile-name')).first()).toBeVisible();
  if (await open.isVisible()) await open.click();
  await expect(page.getByTestId('profile-name')).toBeVisible();
}

/**
 * The system's colour scheme, once the screen has finished changing to it: buttons fade their colours
 * (theme.css), and axe reading a colour halfway through the fade reports a contrast no one sees.
 */
export async function colorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** `look` at the screen as it is, then again in the dark scheme, and back to light. */
export async function lightAndDark(page: Page, look: (scheme: '' | '-dark') => Promise<void>): Promise<void> {
  await look('');
  await colorScheme(page, 'dark');
  await look('-dark');
  await colorScheme(page, 'light');
}

/** `person` names `trusted` their trusted person from `threshold` roubles, and `trusted` accepts, as Settings does. */
export async function nameTrustedPerson(
  request: APIRequestContext,
  person: Person,
  trusted: Person,
  threshold = '1000',
): Promise<void> {
  const named = await request.put('/v2/wallet/trusted-person', {
    headers: auth(person),
    data: { phone: trusted.phone, threshold, new_payees: false },
  });
  expect(named.ok(), await named.text()).toBe(true);
  // The person's id is what the trusted person's list names.
  const asked = (await (
    await request.get('/v2/wallet/trusted-person', { headers: auth(trusted) })
  ).json()) as {
    trusting: { id: string }[];
  };
  const accepted = await request.post('/v2/wallet/trusted-person/accept', {
    headers: auth(trusted),
    data: { id: asked.trusting[0]!.id },
  });
  expect(accepted.ok(), await accepted.text()).toBe(true);
}
