/**
 * The page closing the wallet ends on (docs/decisions/closing-and-export.md): where the roubles went
 * (the card, masked), by when they arrive, and what happens if the bank refuses them.
 */
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import '../../../shared/i18n/closed-wallet-texts.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import type { ClosedWallet } from '../../../shared/session/closed-wallet.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { CheckIcon } from '../../../shared/ui/icons.tsx';

export function ClosedWalletPage({ closed, onDone }: { closed: ClosedWallet; onDone: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { payout } = closed;
  return (
    <section className="auth-page auth-closed" aria-labelledby="closed-title" data-testid="closed-wallet">
      <div className="auth-heading">
        <span className="auth-heading__icon" aria-hidden="true">
          <CheckIcon />
        </span>
        <h1 id="closed-title" className="auth-title">
          {t('account.closed.title')}
        </h1>
      </div>
      {payout ? (
        <div className="auth-closed__facts">
          <p className="auth-closed__payout">
            {t('account.closed.payout', {
              amount: formatMoney(payout.amount, payout.currency_code, language),
              card: `•••• ${payout.card.slice(-4)}`,
            })}
          </p>
          <p>{t('account.closed.expected', { time: formatDateTime(payout.expected_by, language) })}</p>
          <p className="auth-lead">{t('account.closed.bank')}</p>
        </div>
      ) : (
        <p className="auth-closed__payout">{t('account.closed.empty')}</p>
      )}
      <p className="auth-lead">{t('account.closed.after')}</p>
      <Button block onClick={onDone}>
        {t('account.closed.done')}
      </Button>
    </section>
  );
}
