/**
 * The sandbox payments provider's hosted page, as plain HTML: no script and no inline style (the CSP is
 * default-src 'self'); the stylesheet is the sandbox pages' shared /sandbox/assets/sandbox.css. Every
 * value is escaped. The card number typed in is never written back into the page.
 */
import { formatAmount } from '@e-wallet/contract';
import type { HostedPayment as SandboxPayment } from '../../providers/payments/payments-provider.ts';
import { escapeHtml, sandboxPage } from '../sandbox-pages/index.ts';

export const MERCHANT = 'E-Wallet';
export const CARD_ERROR = 'Проверьте номер карты: 13–19 цифр, как на карте';
export const ACTION_ERROR = 'Выберите действие: оплатить или отменить';

/** 150000n RUB -> '1 500,00 ₽' (what a Russian payer reads). */
export function displayAmount(minor: bigint, currency: SandboxPayment['currency']): string {
  const [whole = '0', fraction] = formatAmount(minor, currency).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  const symbol = currency === 'RUB' ? '₽' : currency;
  return `${grouped}${fraction ? `,${fraction}` : ''}\u00a0${symbol}`;
}

const BADGE = 'Песочница — тестовый платёжный провайдер';
const layout = (title: string, body: string) => sandboxPage(BADGE, title, body);

export function notFoundPage(): string {
  return layout(
    'Платёж не найден',
    `<h1>Платёж не найден</h1>
<p>Такого платежа нет.</p>
<p><a href="/">Вернуться в кошелёк</a></p>`,
  );
}

function summary(payment: SandboxPayment): string {
  return `<dl class="muted">
<dt>Получатель</dt><dd>${escapeHtml(MERCHANT)}</dd>
<dt>Назначение</dt><dd>${escapeHtml(payment.description)}</dd>
</dl>
<p class="amount">К оплате: <strong>${escapeHtml(displayAmount(BigInt(payment.amount), payment.currency))}</strong></p>`;
}

/** The card form of an open payment, with a problem after a failed try. */
export function formPage(payment: SandboxPayment, problem?: string): string {
  const errors = problem
    ? `<div class="errors" role="alert" id="card-error">${escapeHtml(problem)}</div>`
    : '';
  const invalid = problem === CARD_ERROR ? ' aria-invalid="true" aria-describedby="card-error"' : '';
  return layout(
    `Оплата — ${MERCHANT}`,
    `<h1>Оплата картой</h1>
${summary(payment)}
<p class="hint">Тестовые карты: 4111 1111 1111 1111 — оплата проходит, 4000 0000 0000 0002 — банк отклоняет, любая другая карта с верной контрольной цифрой — оплата проходит.</p>
<form method="post" action="/sandbox/pay/${escapeHtml(payment.id)}">
${errors}
<label for="card">Номер карты</label>
<input id="card" name="card" inputmode="numeric" autocomplete="cc-number" maxlength="23" placeholder="0000 0000 0000 0000"${invalid}>
<div class="actions">
<button type="submit" name="action" value="pay">Оплатить</button>
<button type="submit" name="action" value="decline" class="secondary">Отменить оплату</button>
</div>
</form>`,
  );
}

/**
 * An open СБП payment (docs/decisions/sbp.md#top-up-by-sbp): the QR a bank app scans (it opens this page),
 * and pay or decline, as the payer's bank app would offer.
 */
export function sbpPage(payment: SandboxPayment, problem?: string): string {
  const errors = problem ? `<div class="errors" role="alert">${escapeHtml(problem)}</div>` : '';
  const id = escapeHtml(payment.id);
  return layout(
    `Оплата через СБП — ${MERCHANT}`,
    `<h1>Оплата через СБП</h1>
${summary(payment)}
<img class="qr" src="/sandbox/pay/${id}/qr.svg" width="200" height="200" alt="QR-код для оплаты через СБП">
<p class="hint">Отсканируйте QR-код камерой телефона или в приложении банка. В песочнице банк плательщика — эта страница: «Оплатить через СБП» проводит оплату, «Отменить оплату» — отклоняет.</p>
<form method="post" action="/sandbox/pay/${id}">
${errors}
<div class="actions">
<button type="submit" name="action" value="pay">Оплатить через СБП</button>
<button type="submit" name="action" value="decline" class="secondary">Отменить оплату</button>
</div>
</form>`,
  );
}

/** A payment that is no longer open. */
export function decidedPage(payment: SandboxPayment, returnTo: string): string {
  const outcome =
    payment.status === 'succeeded'
      ? '<p class="result-ok">Платёж проведён.</p>'
      : '<p class="result-bad">Платёж отклонён.</p>';
  return layout(
    `Оплата — ${MERCHANT}`,
    `<h1>${payment.method === 'sbp' ? 'Оплата через СБП' : 'Оплата картой'}</h1>
${summary(payment)}
${outcome}
<p><a href="${escapeHtml(returnTo)}">Вернуться в кошелёк</a></p>`,
  );
}
