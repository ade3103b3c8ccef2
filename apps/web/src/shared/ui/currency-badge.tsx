/** The currency's image: its symbol on a coloured coin (an inline SVG, no image file). */
import { currencySymbol } from '@e-wallet/contract/money';
import { useId } from 'react';

const COLORS: Record<string, [string, string]> = {
  RUB: ['#2f6bff', '#1447d6'],
  USD: ['#1f9d63', '#137a4b'],
  EUR: ['#7a4dff', '#5a2fd9'],
  IDR: ['#f08a24', '#cf6b0a'],
};

export function CurrencyBadge({ currency, size = 44 }: { currency: string; size?: number }) {
  const [from, to] = COLORS[currency] ?? ['#5b6580', '#3d465e'];
  const id = `coin-${useId().replace(/[^\w-]/g, '')}`;
  return (
    <svg className="currency-badge" width={size} height={size} viewBox="0 0 44 44" aria-hidden="true">
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={from} />
          <stop offset="1" stopColor={to} />
        </linearGradient>
      </defs>
      <circle cx="22" cy="22" r="22" fill={`url(#${id})`} />
      <circle cx="22" cy="22" r="17" fill="none" stroke="#fff" strokeOpacity="0.35" strokeWidth="1.5" />
      <text
        x="22"
        y="22"
        dy="0.36em"
        textAnchor="middle"
        fill="#fff"
        fontSize="19"
        fontWeight="700"
        fontFamily="system-ui, sans-serif"
      >
        {currencySymbol(currency)}
      </text>
    </svg>
  );
}
