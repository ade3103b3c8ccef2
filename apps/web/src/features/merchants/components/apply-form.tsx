/** The merchant application (POST /v2/wallet/merchant): the server checks the INN, the account and the URL. */
import { MERCHANT_MCCS, type MerchantMcc } from '@e-wallet/contract/merchant-codes';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-error.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { FieldError, TextField } from '../../../shared/ui/text-field.tsx';
import { applyMerchant } from '../api/merchants.ts';

export function ApplyForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'self_employed' | 'company'>('self_employed');
  const [mcc, setMcc] = useState<MerchantMcc>('5999');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      await applyMerchant({
        kind,
        mcc,
        name: text('name'),
        inn: text('inn'),
        site_url: text('site_url'),
        bank_bic: text('bank_bic'),
        bank_account: text('bank_account'),
        ...(text('notification_url') ? { notification_url: text('notification_url') } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: ['merchant'] });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.answer ? failure.answer.message : t('common.networkError'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="merchant-form" onSubmit={submit} data-testid="merchant-apply">
      <p className="merchant-hint">{t('merchants.intro')}</p>
      <SelectField
        label={t('merchants.kind')}
        value={kind}
        onChange={setKind}
        options={(['self_employed', 'company'] as const).map((value) => ({
          value,
          label: t(`merchants.kinds.${value}`),
        }))}
      />
      <TextField label={t('merchants.name')} name="name" required maxLength={100} />
      <TextField label={t('merchants.inn')} name="inn" required inputMode="numeric" maxLength={12} />
      <SelectField
        label={t('merchants.mcc')}
        value={mcc}
        onChange={setMcc}
        options={MERCHANT_MCCS.map((value) => ({ value, label: t(`merchants.mccs.${value}`) }))}
      />
      <TextField label={t('merchants.site')} name="site_url" type="url" required placeholder="https://" />
      <TextField label={t('merchants.bic')} name="bank_bic" required inputMode="numeric" maxLength={9} />
      <TextField
        label={t('merchants.account')}
        name="bank_account"
        required
        inputMode="numeric"
        maxLength={20}
      />
      <TextField
        label={t('merchants.notificationUrl')}
        name="notification_url"
        type="url"
        placeholder="https://"
      />
      <FieldError message={error} />
      <Button type="submit" block busy={busy}>
        {t('merchants.apply')}
      </Button>
    </form>
  );
}
