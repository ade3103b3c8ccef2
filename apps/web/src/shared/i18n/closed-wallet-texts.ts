/**
 * Texts of the page closing the wallet ends on (docs/decisions/closing-and-export.md), registered
 * when that page's module loads (it is lazy), so the sign-in pages' first script does not carry them.
 */
import i18n from './i18n.ts';

const closedRu = {
  title: 'Кошелёк закрыт',
  payout: '{{amount}} отправлены на карту {{card}}',
  expected: 'Обычно деньги приходят за несколько минут, самое позднее — {{time}}',
  bank: 'Если банк карты откажет, деньги не пропадут: они вернутся на счёт закрытого кошелька, и сотрудники E‑Wallet их увидят',
  empty: 'На счетах не было денег, выплачивать нечего',
  after:
    'Записи об операциях хранятся пять лет, как требует закон. Этот номер телефона можно зарегистрировать снова',
  done: 'Понятно',
};

const closedEn: typeof closedRu = {
  title: 'The wallet is closed',
  payout: '{{amount}} sent to the card {{card}}',
  expected: 'The money usually arrives within minutes, at the latest by {{time}}',
  bank: "If the card's bank refuses it, the money is not lost: it returns to the closed wallet's account, where E‑Wallet's staff see it",
  empty: 'There was no money in the accounts, nothing to pay out',
  after:
    'Records of operations are kept for five years, as the law requires. This phone number can register again',
  done: 'Got it',
};

i18n.addResourceBundle('ru', 'translation', { account: { closed: closedRu } }, true, false);
i18n.addResourceBundle('en', 'translation', { account: { closed: closedEn } }, true, false);
