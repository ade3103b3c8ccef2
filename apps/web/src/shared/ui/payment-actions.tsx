/** The payment component: top-up, withdraw, send and pay, as links to their screens. */
import './money-ui.css';
import './payment-actions.css';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../routes.ts';
import { ArrowDownIcon, ArrowUpIcon, QrIcon, SendIcon } from './money-icons.tsx';

export function PaymentActions({ only }: { only?: ('topup' | 'withdraw' | 'send' | 'pay')[] }) {
  const { t } = useTranslation();
  const actions = [
    { key: 'topup', to: pathTo('WalletTopUp'), label: t('actions.topup'), Icon: ArrowDownIcon },
    { key: 'withdraw', to: pathTo('WalletWithdrawal'), label: t('actions.withdraw'), Icon: ArrowUpIcon },
    { key: 'send', to: pathTo('WalletSave'), label: t('actions.send'), Icon: SendIcon },
    { key: 'pay', to: pathTo('Payment'), label: t('actions.pay'), Icon: QrIcon },
  ] as const;
  return (
    <nav className="payment-actions" aria-label={t('actions.label')}>
      {actions
        .filter((action) => !only || only.includes(action.key))
        .map(({ key, to, label, Icon }) => (
          <Link key={key} to={to} className={`payment-actions__link payment-actions__link--${key}`}>
            <span className="payment-actions__icon">
              <Icon />
            </span>
            <span>{label}</span>
          </Link>
        ))}
    </nav>
  );
}
