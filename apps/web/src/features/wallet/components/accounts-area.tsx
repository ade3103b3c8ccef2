/** The carousel of the user's accounts with its loading, error and empty states. */
import { useTranslation } from 'react-i18next';
import { useAccounts, type WalletAccount } from '../../../shared/api/wallet.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { WalletCarousel } from '../../../shared/ui/wallet-carousel.tsx';

export function AccountsArea({
  onSelect,
  selectedId,
}: {
  onSelect?: (account: WalletAccount) => void;
  selectedId?: string | null;
}) {
  const { t } = useTranslation();
  const accounts = useAccounts();
  // Shaped like the carousel that replaces it (its arrows too where Home's slides overflow).
  if (accounts.isPending)
    return (
      <AreaLoading
        rows={1}
        className={onSelect ? 'area-state--cards' : 'area-state--cards area-state--cards-controls'}
      />
    );
  if (accounts.isError) return <AreaError onRetry={() => accounts.refetch()} />;
  if (accounts.data.length === 0)
    return <p className="area-state area-state--empty">{t('accounts.empty')}</p>;
  return (
    <WalletCarousel
      accounts={accounts.data}
      onSelect={onSelect}
      selectedId={selectedId}
      newAccountSlide={!onSelect && accounts.data.length < 4}
    />
  );
}
