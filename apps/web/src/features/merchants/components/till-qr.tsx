/**
 * The merchant's static QR for its till (docs/decisions/merchants.md#merchants): the wallet's address
 * `/pay/shop/<merchant id>`; a payer who scans it in the app types the amount and pays with the PIN.
 */
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pathTo } from '../../../shared/routes.ts';

export function TillQr({ merchant }: { merchant: string }) {
  const { t } = useTranslation();
  const [image, setImage] = useState<string | null>(null);
  const text = `${window.location.origin}${pathTo('PayShop', { id: merchant })}`;
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 320, color: { dark: '#111a33' } })
      .then((url) => current && setImage(url))
      .catch(() => current && setImage(null));
    return () => {
      current = false;
    };
  }, [text]);
  return (
    <details className="merchant-till" data-testid="merchant-till-qr">
      <summary>{t('merchants.tillQr')}</summary>
      <p className="merchant-hint">{t('merchants.tillQrHint')}</p>
      {image && <img src={image} alt={t('merchants.tillQr')} width={160} height={160} />}
      <code>{text}</code>
    </details>
  );
}
