/** Stuck payouts: settle (paid) or release (money back) each one, with a reason. */
import { type OperatorRole, roleAllows } from '@e-wallet/contract';
import { api } from './api.ts';
import { useLanguage, useT } from './i18n.tsx';
import { date, ErrorText, Link, ReasonForm, Title, useLoad } from './ui.tsx';

interface Payout {
  id: string;
  user_id: string;
  first_name: string;
  last_name: string;
  amount: string;
  currency: string;
  destination: string;
  provider: string;
  status: string;
  created_at: string;
}

export function Payouts({ role }: { role: OperatorRole }) {
  const t = useT();
  const { language } = useLanguage();
  const { data, error, reload } = useLoad(
    () => api<{ payouts: Payout[] }>('GET', '/ops/v1/payouts?status=stuck'),
    [],
  );
  const decides = roleAllows(role, 'payouts');
  return (
    <main id="main">
      <Title>{t('payouts')}</Title>
      <ErrorText error={error} />
      {data && data.payouts.length === 0 && <p>{t('noPayouts')}</p>}
      {data?.payouts.map((p) => (
        <article key={p.id} className="panel" aria-labelledby={`payout-${p.id}`}>
          <h2 id={`payout-${p.id}`}>
            {p.amount} {p.currency} ·{' '}
            <Link to={`/users/${p.user_id}`}>{`${p.last_name} ${p.first_name}`}</Link>
          </h2>
          <dl className="facts">
            <dt>{t('destination')}</dt>
            <dd>{p.destination}</dd>
            <dt>{t('provider')}</dt>
            <dd>{p.provider}</dd>
            <dt>{t('status')}</dt>
            <dd>{p.status}</dd>
            <dt>{t('created')}</dt>
            <dd>{date(p.created_at, language)}</dd>
          </dl>
          {decides && (
            <div className="actions">
              <ReasonForm
                action="settle"
                onSubmit={async (reason) => {
                  await api('POST', `/ops/v1/payouts/${p.id}/settle`, { reason });
                  reload();
                }}
              />
              <ReasonForm
                action="release"
                danger
                onSubmit={async (reason) => {
                  await api('POST', `/ops/v1/payouts/${p.id}/release`, { reason });
                  reload();
                }}
              />
            </div>
          )}
        </article>
      ))}
    </main>
  );
}
