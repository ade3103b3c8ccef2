/** A notice on a money screen, such as 'Вывод средств недоступен…' with the way out. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A money screen the person's identification level does not allow yet: what, and the way out. */
export function UnavailableNotice({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <MoneyNotice testId={testId}>
      <p>{text}</p>
      <p className="money-notice__more">{t('moneyFlow.identify')}</p>
    </MoneyNotice>
  );
}

export function MoneyNotice({
  tone = 'warning',
  children,
  testId,
}: {
  tone?: 'warning' | 'info';
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div
      className={`money-notice money-notice--${tone}`}
      role={tone === 'warning' ? 'alert' : undefined}
      data-testid={testId}
    >
      <svg
        className="money-notice__icon"
        viewBox="0 0 24 24"
        width="22"
        height="22"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      >
        <circle cx="12" cy="12" r="9.5" />
        <path d="M12 7.5v5.5M12 16.5v.01" />
      </svg>
      <div className="money-notice__text">{children}</div>
    </div>
  );
}
