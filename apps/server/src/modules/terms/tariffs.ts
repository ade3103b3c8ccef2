/**
 * The tariffs document (docs/decisions/sbp.md#fees), rendered by the server from the settings in force, so
 * that what the document says is what the wallet charges: the СБП transfer's fee (SBP_FEE_BASIS_POINTS,
 * SBP_FEE_MIN_KOPECKS, computed by modules/sbp/fees.ts) and the merchants' fee (MERCHANT_FEE_BASIS_POINTS).
 * The terms and the memo stay static files of the app (apps/web/public/legal/<version>/).
 */
import { formatAmount, formatAmountText, formatMoney, type Language } from '@e-wallet/contract';
import type { Config } from '../../config.ts';
import { escapeHtml } from '../sandbox-pages/index.ts';

export const TARIFFS_PATH = '/v2/wallet/terms/:version/tariffs.:language.html';
export const tariffsUrl = (version: string, language: Language) =>
  `/v2/wallet/terms/${version}/tariffs.${language}.html`;

type Settings = Pick<Config, 'SBP_FEE_BASIS_POINTS' | 'SBP_FEE_MIN_KOPECKS' | 'MERCHANT_FEE_BASIS_POINTS'>;

const T = {
  ru: {
    title: 'Тарифы',
    // The date reads '28 ноября 2026 г.', its own full stop.
    edition: (date: string) => `Редакция от ${date}`,
    operation: 'Операция',
    fee: 'Комиссия',
    free: 'Бесплатно',
    ofAmount: (percent: string) => `${percent}\u00a0% от суммы`,
    atLeast: (money: string) => `не менее ${money}`,
    flat: (money: string) => `${money} за перевод`,
    payerFree: 'Для покупателя бесплатно',
    rows: {
      keep: 'Открытие и обслуживание кошелька',
      topupCard: 'Пополнение картой',
      topupSbp: 'Пополнение через СБП',
      transfer: 'Перевод другому пользователю кошелька',
      qr: 'Оплата по QR-коду',
      withdrawal: 'Вывод на банковскую карту',
      sbp: 'Перевод по СБП по номеру телефона в другой банк (берётся сверх суммы перевода и возвращается, если перевод не прошёл)',
      merchantPay: 'Оплата в магазине, принимающем кошелёк',
      merchant: 'Приём платежей магазином (с каждого платежа, из суммы платежа)',
      exchange: 'Обмен валют',
      exchangeFee: 'Разница курса, указанная в приложении перед обменом',
      close: 'Закрытие кошелька и вывод остатка',
    },
  },
  en: {
    title: 'Tariffs',
    edition: (date: string) => `Version of ${date}.`,
    operation: 'Operation',
    fee: 'Fee',
    free: 'Free',
    ofAmount: (percent: string) => `${percent}% of the amount`,
    atLeast: (money: string) => `at least ${money}`,
    flat: (money: string) => `${money} per transfer`,
    payerFree: 'Free for the buyer',
    rows: {
      keep: 'Opening and keeping the wallet',
      topupCard: 'Top-up by card',
      topupSbp: 'Top-up by the Faster Payments System (SBP)',
      transfer: 'Transfer to another wallet user',
      qr: 'QR payment',
      withdrawal: 'Withdrawal to a bank card',
      sbp: 'SBP transfer by phone to another bank (charged on top of the amount, returned if the transfer fails)',
      merchantPay: 'Paying a shop that accepts the wallet',
      merchant: 'Payments taken by a shop (from each payment, out of its amount)',
      exchange: 'Currency exchange',
      exchangeFee: 'The rate margin shown in the app before the exchange',
      close: 'Closing the wallet and paying out the balance',
    },
  },
} as const;

/** Basis points as a percent in integers (150 -> '1,50' / '1.50'), never through a float. */
const percentOf = (basisPoints: number, language: Language) =>
  formatAmountText(formatAmount(BigInt(basisPoints), 'RUB'), language);

function sbpFeeText(settings: Settings, language: Language): string {
  const t = T[language];
  const minimum = formatMoney(formatAmount(BigInt(settings.SBP_FEE_MIN_KOPECKS), 'RUB'), 'RUB', language);
  if (settings.SBP_FEE_BASIS_POINTS === 0)
    return settings.SBP_FEE_MIN_KOPECKS === 0 ? t.free : t.flat(minimum);
  const percent = t.ofAmount(percentOf(settings.SBP_FEE_BASIS_POINTS, language));
  return settings.SBP_FEE_MIN_KOPECKS === 0 ? percent : `${percent}, ${t.atLeast(minimum)}`;
}

/** The page of one version (its date, 'YYYY-MM-DD') in one language, with the fees configured now. */
export function tariffsPage(settings: Settings, version: string, language: Language): string {
  const t = T[language];
  const date = new Date(`${version}T12:00:00Z`).toLocaleDateString(language === 'ru' ? 'ru-RU' : 'en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/Moscow',
  });
  const merchantFee =
    settings.MERCHANT_FEE_BASIS_POINTS === 0
      ? t.free
      : t.ofAmount(percentOf(settings.MERCHANT_FEE_BASIS_POINTS, language));
  const rows: Array<[string, string]> = [
    [t.rows.keep, t.free],
    [t.rows.topupCard, t.free],
    [t.rows.topupSbp, t.free],
    [t.rows.transfer, t.free],
    [t.rows.qr, t.free],
    [t.rows.withdrawal, t.free],
    [t.rows.sbp, sbpFeeText(settings, language)],
    [t.rows.merchantPay, t.payerFree],
    [t.rows.merchant, merchantFee],
    [t.rows.exchange, t.rows.exchangeFee],
    [t.rows.close, t.free],
  ];
  const body = rows
    .map(([what, fee]) => `<tr><td>${escapeHtml(what)}</td><td data-fee>${escapeHtml(fee)}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<link rel="stylesheet" href="/legal/legal.css">
</head>
<body>
<main>
<h1>${t.title}</h1>
<p>${escapeHtml(t.edition(date))}</p>
<table>
<thead><tr><th>${t.operation}</th><th>${t.fee}</th></tr></thead>
<tbody>
${body}
</tbody>
</table>
</main>
</body>
</html>
`;
}
