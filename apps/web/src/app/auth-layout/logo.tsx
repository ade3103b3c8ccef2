/**
 * The logo of the auth layout (spec 'Auth layout'): the brand image for the build-time brand
 * 'grok', otherwise a wallet icon with the text E-Wallet.
 */

import { brand } from 'virtual:brand';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { WalletIcon } from '../../shared/ui/icons.tsx';
import grokLogoUrl from '../assets/brand-grok.svg';

export function Logo({ inverted = false }: { inverted?: boolean }) {
  const { t } = useTranslation();
  if (__BRAND__ === 'grok') {
    return <img className="logo logo--image" src={grokLogoUrl} alt={brand.name} width={120} height={40} />;
  }
  return (
    <span className={clsx('logo', inverted && 'logo--inverted')}>
      <span className="logo__mark">
        <WalletIcon />
      </span>
      <span className="logo__text">{t('brand.name')}</span>
    </span>
  );
}
