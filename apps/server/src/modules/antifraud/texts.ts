/**
 * The antifraud module's words in both languages: why an operation waits, and the SMS that tells the
 * person out of band (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
 */
import type { HoldReason, Language } from '@e-wallet/contract';
import { nameIn } from '@e-wallet/contract/names';

export const REASON_TEXTS: Record<HoldReason, Record<Language, string>> = {
  fraud_database: {
    ru: 'получатель есть в базе Банка России о случаях мошенничества',
    en: 'the recipient is in the Bank of Russia’s database of fraud cases',
  },
  new_session: {
    ru: 'крупный перевод новому получателю с недавно подключённого устройства',
    en: 'a large payment to a new recipient from a recently signed-in device',
  },
  security_change: {
    ru: 'крупный перевод новому получателю вскоре после смены PIN-кода или ключа доступа',
    en: 'a large payment to a new recipient soon after the PIN or a passkey changed',
  },
  large_amount: {
    ru: 'сумма намного больше ваших обычных операций',
    en: 'the amount is far above your usual operations',
  },
  many_new_payees: {
    ru: 'много новых получателей за короткое время',
    en: 'many new recipients in a short time',
  },
  trusted_threshold: {
    ru: 'сумма не меньше порога, от которого операции подтверждает ваше доверенное лицо',
    en: 'the amount reaches the sum from which your trusted person approves operations',
  },
  trusted_new_payee: {
    ru: 'первый платёж новому получателю подтверждает ваше доверенное лицо',
    en: 'your trusted person approves a first payment to a new recipient',
  },
};

/** The trusted person's own reasons when their name and threshold are known: who decides and from what. */
const TRUSTED_NAMED = {
  trusted_threshold: {
    ru: 'Сумма от {threshold} — такие операции подтверждает {name}',
    en: '{threshold} or more — {name} approves such operations',
  },
  trusted_new_payee: {
    ru: 'Первый платёж новому получателю — его подтверждает {name}',
    en: 'A first payment to a new recipient — {name} approves it',
  },
} as const;

/** Who approves a person's operations, as the reasons name them. */
export interface TrustedNamed {
  name: string;
  /** The threshold as the reader reads it ('1 000 ₽'). */
  threshold: string;
}

/** The reasons as a short list, each standing alone, the trusted person named when known. */
export function reasonList(
  reasons: readonly HoldReason[],
  language: Language,
  trusted: TrustedNamed | null,
): string[] {
  return reasons.map((reason) => {
    if (trusted && (reason === 'trusted_threshold' || reason === 'trusted_new_payee'))
      return fill(TRUSTED_NAMED[reason][language], { ...trusted, name: nameIn(trusted.name, language) });
    const text = REASON_TEXTS[reason][language];
    return text.charAt(0).toUpperCase() + text.slice(1);
  });
}

/** The reasons as one plain sentence part: 'a; b' (inside a notification's sentence). */
export function reasonText(reasons: readonly HoldReason[], language: Language): string {
  return reasons.map((reason) => REASON_TEXTS[reason][language]).join('; ');
}

/** The reasons standing alone (an answer, a screen): the same words, starting with a capital. */
export function reasonSentence(reasons: readonly HoldReason[], language: Language): string {
  const text = reasonText(reasons, language);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const SMS = {
  held: {
    ru: 'E-Wallet: операция {amount} приостановлена ({reason}). Если это вы, подтвердите её в приложении кодом из SMS. Если вас торопят или просят перевести деньги, это мошенники: отмените операцию.',
    en: 'E-Wallet: an operation of {amount} is on hold ({reason}). If it is yours, confirm it in the app with an SMS code. If someone rushes you or asks you to send money, it is a fraud: cancel it.',
  },
  approval: {
    ru: 'E-Wallet: {person} просит одобрить операцию {amount}. Откройте приложение, чтобы одобрить или отклонить.',
    en: 'E-Wallet: {person} asks you to approve an operation of {amount}. Open the app to approve or decline.',
  },
  trustedChange: {
    ru: 'E-Wallet: доверенное лицо — {change}. Если это были не вы, заблокируйте кошелёк.',
    en: 'E-Wallet: trusted person — {change}. If it was not you, freeze your wallet.',
  },
} as const;

export const CHANGES = {
  named: { ru: 'назначено, ждёт согласия', en: 'named, waiting for their consent' },
  accepted: { ru: 'согласие получено, защита включена', en: 'accepted, the protection is on' },
  lowered: { ru: 'порог снижен, действует сразу', en: 'the threshold is lowered, in effect now' },
  raised: {
    ru: 'порог повышен, изменение вступит в силу через 48 часов',
    en: 'the threshold is raised, in effect in 48 hours',
  },
  removing: {
    ru: 'удаление вступит в силу через 48 часов',
    en: 'the removal takes effect in 48 hours',
  },
  removed: { ru: 'удалено', en: 'removed' },
  changeApplied: { ru: 'изменение вступило в силу', en: 'the change is now in effect' },
} as const;

/** Why a trusted person's role ended, as the person who named them reads it. */
export const LEFT_BECAUSE = {
  closed: { ru: 'кошелёк закрыт', en: 'their wallet is closed' },
  frozen: { ru: 'кошелёк заблокирован', en: 'their wallet is frozen' },
  left: { ru: 'отказ от роли', en: 'they stepped down' },
} as const;

export function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}
