/**
 * Texts of the inactivity lock (docs/decisions/security-rules.md#security-baselines). Spread into the i18n
 * resources; the i18n test checks that both languages have every key, and `appLockEn`'s type makes a missing
 * one a compile error.
 */
export const appLockRu = {
  appLock: {
    title: 'Приложение заблокировано',
    greeting: '{{name}}, введите PIN-код, чтобы продолжить',
    greetingNoName: 'Введите PIN-код, чтобы продолжить',
    reason: 'Мы заблокировали приложение после 15 минут без действий',
    pinLabel: 'PIN-код',
    pinDigit: 'Цифра PIN-кода {{n}} из {{total}}',
    checking: 'Проверяем PIN-код…',
    failed: 'Не удалось проверить PIN-код. Проверьте соединение и попробуйте снова',
    signOut: 'Выйти',
    passkey: 'Разблокировать ключом доступа',
    passkeyChecking: 'Проверяем ключ доступа…',
  },
};

export const appLockEn: typeof appLockRu = {
  appLock: {
    title: 'The app is locked',
    greeting: '{{name}}, enter your PIN to continue',
    greetingNoName: 'Enter your PIN to continue',
    reason: 'We locked the app after 15 minutes without activity',
    pinLabel: 'PIN',
    pinDigit: 'PIN digit {{n}} of {{total}}',
    checking: 'Checking the PIN…',
    failed: 'Could not check the PIN. Check the connection and try again',
    signOut: 'Sign out',
    passkey: 'Unlock with a passkey',
    passkeyChecking: 'Checking the passkey…',
  },
};
