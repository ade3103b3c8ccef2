/**
 * A merchant's static QR at the till (`/pay/shop/<merchant id>`, docs/decisions/merchants.md#merchants): the
 * payer types the amount, the wallet makes a payment of it that only they may pay, and its page opens.
 */
import { formatAmount, parseAmount } from '@e-wallet/contract/money';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { callOk } from '../../../shared/api/client.ts';
import { pathTo } from '../../../shared/routes.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { FieldError, TextField } from '../../../shared/ui/text-field.tsx';

export function ShopAmount({ merchant }: { merchant: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const parsed = typed.trim() ? parseAmount(typed, 'RUB') : null;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!parsed?.ok) return;
    const comment = String(new FormData(event.currentTarget).get('comment') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const made = await callOk('merchantStaticPayment', {
        body: { merchant, amount: formatAmount(parsed.minor, 'RUB'), ...(comment ? { comment } : {}) },
      });
      navigate(pathTo('PayMerchant', { id: made.id }), { replace: true });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.answer ? failure.answer.message : t('common.networkError'),
      );
      setBusy(false);
    }
  };
  return (
    <form className="merchant-form merchant-shop" onSubmit={submit} data-testid="pay-shop">
      <p className="merchant-hint">{t('merchants.pay.typeAmount')}</p>
      <AmountField
        value={typed}
        onChange={setTyped}
        currency="RUB"
        autoFocus
        error={parsed && !parsed.ok ? t(`payment.amountErrors.${parsed.error}`) : null}
      />
      <TextField label={t('merchants.pay.comment')} name="comment" maxLength={128} />
      <FieldError message={error} />
      <Button type="submit" block disabled={!parsed?.ok || busy}>
        {t('merchants.pay.next')}
      </Button>
    </form>
  );
}
