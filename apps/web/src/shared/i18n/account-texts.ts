/**
 * Texts of a person's account the sign-in pages show (docs/decisions/account.md#a-persons-account): the terms
 * at registration, the operator's identity, sign-in with a passkey. Spread into ru.ts and en.ts;
 * `accountEn`'s type makes a missing English key a compile error. The rest: account-signed-in-texts.ts.
 */
export const accountRu = {
  account: {
    terms: {
      documents: 'Документы',
      consent: 'Я прочитал(а) условия использования, тарифы и памятку Банка России и принимаю их',
      loading: 'Загружаем документы…',
      error: 'Не удалось загрузить документы. Обновите страницу',
      newTab: '(откроется в новой вкладке)',
    },
    operator: {
      title: 'Оператор электронных денежных средств',
      licence: 'Лицензия Банка России {{licence}}',
      register: 'Запись в реестре Банка России',
    },
    passkeyLogin: {
      button: 'Войти с ключом доступа',
      or: 'или',
      failed: 'Не удалось войти с ключом доступа. Попробуйте ещё раз или войдите по SMS',
    },
    // The page closing the wallet ends on: the session is over, so it is shown before sign-in.
    closed: {
      title: 'Кошелёк закрыт',
      payout: '{{amount}} отправлены на карту {{card}}',
      expected: 'Обычно деньги приходят за несколько минут, самое позднее — {{time}}',
      bank: 'Если банк карты откажет, деньги не пропадут: они вернутся на счёт закрытого кошелька, и сотрудники E‑Wallet их увидят',
      empty: 'На счетах не было денег, выплачивать нечего',
      after:
        'Записи об операциях хранятся пять лет, как требует закон. Этот номер телефона можно зарегистрировать снова',
      done: 'Понятно',
    },
  },
};

export const accountEn: typeof accountRu = {
  account: {
    terms: {
      documents: 'Documents',
      consent: "I have read the terms of use, the tariffs and the Bank of Russia's memo, and I accept them",
      loading: 'Loading the documents…',
      error: 'The documents could not be loaded. Please reload the page',
      newTab: '(opens in a new tab)',
    },
    operator: {
      title: 'Electronic money operator',
      licence: 'Bank of Russia licence {{licence}}',
      register: "Entry in the Bank of Russia's register",
    },
    passkeyLogin: {
      button: 'Sign in with a passkey',
      or: 'or',
      failed: 'Signing in with a passkey failed. Please try again or sign in by SMS',
    },
    closed: {
      title: 'The wallet is closed',
      payout: '{{amount}} sent to the card {{card}}',
      expected: 'The money usually arrives within minutes, at the latest by {{time}}',
      bank: "If the card's bank refuses it, the money is not lost: it returns to the closed wallet's account, where E‑Wallet's staff see it",
      empty: 'There was no money in the accounts, nothing to pay out',
      after:
        'Records of operations are kept for five years, as the law requires. This phone number can register again',
      done: 'Got it',
    },
  },
};
