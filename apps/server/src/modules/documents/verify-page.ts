/**
 * The public page that confirms a receipt: plain HTML, no script, its stylesheet from our origin (the
 * pages' CSP is default-src 'self'). It shows what the receipt shows a stranger: the operation's
 * kind, amount, date and status, the masked parties, its number and the operator; never a balance
 * or an account.
 */
import { formatAmount, formatMoney, type Language } from '@e-wallet/contract';
import type { Operator } from '../../policy/operator.ts';
import { partiesOf } from './pdf.ts';
import type { ReceiptFacts } from './service.ts';
import { printedTime, textsOf } from './texts.ts';

export const VERIFY_CSS_PATH = '/verify/assets/verify.css';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

function page(language: Language, title: string, operator: Operator, body: string): string {
  const t = textsOf(language);
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${VERIFY_CSS_PATH}">
</head>
<body>
<main class="verify">
<p class="verify__operator">${escapeHtml(operator.name)}</p>
${body}
<footer class="verify__footer">
<p>${escapeHtml(t.operator)}: ${escapeHtml(operator.name)}</p>
${operator.details.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
</footer>
</main>
</body>
</html>
`;
}

export function verifiedPage(facts: ReceiptFacts, operator: Operator, language: Language): string {
  const t = textsOf(language);
  const parties = partiesOf(facts, language);
  const amount = formatMoney(
    formatAmount(facts.amount < 0n ? -facts.amount : facts.amount, facts.currency),
    facts.currency,
    language,
  );
  const rows: [string, string, string][] = [
    [t.operation, t.kinds[facts.kind]!, 'kind'],
    [t.amount, amount, 'amount'],
    [t.date, printedTime(facts.createdAt, language), 'date'],
    [t.status, t.statuses[facts.status]!, 'status'],
    [t.payer, parties.payer, 'payer'],
    [t.payee, parties.payee, 'payee'],
    [t.number, facts.transferId, 'number'],
  ];
  const body = `<h1 class="verify__title verify__title--ok">${escapeHtml(t.confirmed)}</h1>
<p class="verify__text">${escapeHtml(t.confirmedText)}</p>
<dl class="verify__rows">
${rows.map(([label, value, id]) => `<div class="verify__row" data-field="${id}"><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`).join('\n')}
</dl>`;
  return page(language, t.confirmed, operator, body);
}

export function notFoundPage(operator: Operator, language: Language, message?: string): string {
  const t = textsOf(language);
  const body = `<h1 class="verify__title verify__title--missing">${escapeHtml(message ?? t.notFound)}</h1>
<p class="verify__text">${escapeHtml(message ? '' : t.notFoundText)}</p>`;
  return page(language, message ?? t.notFound, operator, body);
}
