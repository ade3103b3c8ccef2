/**
 * 'Your QR' (docs/decisions/placeholders-and-defects.md#placeholders-become-real-features): the user's own
 * receive QR, drawn with the `qrcode` package from walletQrText(phone, amount?). Another wallet user who
 * scans it starts a transfer to this user; an amount typed here goes into the code.
 */
import { walletQrText } from '@e-wallet/contract/qr';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { formatPhone } from '../../../shared/format/person.ts';
import { pathTo } from '../../../shared/routes.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { typedAmount } from '../qr/qr-payment-view.ts';

export function OwnQr() {
  const { t } = useTranslation();
  const user = useAuthInfo();
  const [typed, setTyped] = useState('');
  const [image, setImage] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  const parsed = typed.trim() ? typedAmount(typed, 'RUB') : null;
  const amount = parsed?.ok ? parsed.amount : null;
  const phone = user.data?.phone ?? null;
  const text = phone ? walletQrText(phone, amount) : null;

  useEffect(() => {
    if (!text) return;
    let current = true;
    QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 560, color: { dark: '#111a33' } })
      .then((url) => {
        if (current) {
          setImage(url);
          setFailed(false);
        }
      })
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [text]);

  if (user.isPending) return <AreaLoading rows={2} />;
  if (user.isError || !phone) return <AreaError onRetry={() => user.refetch()} />;
  return (
    <section className="panel own-qr" aria-labelledby="own-qr-title" data-testid="own-qr">
      <h2 id="own-qr-title" className="panel__title">
        {t('payment.own.title')}
      </h2>
      <p className="own-qr__text">{t('payment.own.text')}</p>
      <div className="own-qr__code">
        {failed ? (
          <p className="form-error" role="alert">
            {t('payment.own.failed')}
          </p>
        ) : image ? (
          <img
            src={image}
            width={280}
            height={280}
            alt={t('payment.own.image', { phone: formatPhone(phone) })}
            data-qr-text={text ?? undefined}
            data-testid="own-qr-image"
          />
        ) : (
          <span className="skeleton own-qr__placeholder" aria-hidden="true" />
        )}
      </div>
      <p className="own-qr__phone">{formatPhone(phone)}</p>
      <AmountField
        label={t('payment.own.amount')}
        hint={t('payment.own.amountHint')}
        value={typed}
        onChange={setTyped}
        currency="RUB"
        error={parsed && !parsed.ok ? t(`payment.amountErrors.${parsed.error}`) : null}
      />
      {/* The code works for whoever scans it; a request by link or phone works at a distance. */}
      <Link to={pathTo('WalletRequest')} className="button button--secondary own-qr__request">
        {t('requests.ask')}
      </Link>
    </section>
  );
}
