/** Reconciliation of a day: each provider's records against the ledger, every difference listed. */
import { CASH_CURRENCY } from '@e-wallet/contract/money';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { opsCall } from '../../shared/api/client.ts';
import { useFormat, useNames } from '../../shared/format/format.ts';
import { DataTable, ErrorText, Title } from '../../shared/ui/ui.tsx';

interface Side {
  provider: string;
  kind: 'topups' | 'payouts';
}
interface Answer {
  providers: Array<Side & { listed: boolean; provider_records: number | null; ledger_records: number }>;
  differences: Array<
    Side & {
      problem: string;
      reference: string | null;
      provider_amount: string | null;
      provider_status: string | null;
      ledger_amount: string | null;
      ledger_status: string | null;
      destination: string | null;
    }
  >;
  /** Merchants' balances against their own records (docs/decisions/merchants.md#merchants). */
  merchants: {
    count: number;
    balance: string;
    /** What their settlements hold on the way to their banks. */
    settling: string;
    differences: Array<{ merchant: string; name: string; ledger_balance: string; expected: string }>;
  };
}

/** Today in Moscow, as the wallet counts days. */
function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());
}

export function ReconciliationPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const [search, setSearch] = useSearchParams();
  const day = search.get('date') ?? today();
  const answer = useQuery({
    queryKey: ['reconciliation', day],
    queryFn: () => opsCall<Answer>('reconciliation', { query: { date: day } }),
  });
  const form = useForm({ values: { date: day } });
  const side = (amount: string | null, status: string | null) =>
    amount ? `${format.money(amount, CASH_CURRENCY)} · ${names('status', status)}` : '—';
  return (
    <>
      <Title>{t('reconciliation.title')}</Title>
      <form className="inline" onSubmit={form.handleSubmit(({ date }) => setSearch({ date }))}>
        <label htmlFor="reconcile-date">{t('reconciliation.day')}</label>
        <input id="reconcile-date" type="date" required {...form.register('date', { required: true })} />
        <button type="submit">{t('reconciliation.compare')}</button>
      </form>
      <ErrorText error={answer.error} />
      {answer.data && (
        <>
          <DataTable
            rows={answer.data.providers}
            rowKey={(p) => `${p.provider}-${p.kind}`}
            columns={[
              {
                header: t('reconciliation.provider'),
                cell: (p) => p.provider,
              },
              {
                header: t('reconciliation.kind'),
                cell: (p) => names('kind', p.kind),
              },
              {
                header: t('reconciliation.records'),
                cell: (p) => (p.listed ? p.provider_records : t('reconciliation.notListed')),
              },
              {
                header: t('reconciliation.ledgerRecords'),
                cell: (p) => p.ledger_records,
              },
            ]}
          />
          <h2>{t('reconciliation.differences')}</h2>
          <DataTable
            rows={answer.data.differences}
            rowKey={(d) => `${d.kind}-${d.problem}-${d.reference}`}
            empty={<span role="status">{t('reconciliation.noDifferences')}</span>}
            columns={[
              {
                header: t('reconciliation.provider'),
                cell: (d) => d.provider,
              },
              {
                header: t('reconciliation.kind'),
                cell: (d) => names('kind', d.kind),
              },
              {
                header: t('reconciliation.problem'),
                cell: (d) => names('problem', d.problem),
              },
              {
                header: t('reconciliation.reference'),
                cell: (d) => <span className="mono">{d.reference ?? '—'}</span>,
              },
              {
                header: t('reconciliation.destination'),
                cell: (d) => d.destination ?? '—',
              },
              {
                header: t('reconciliation.providerSide'),
                cell: (d) => side(d.provider_amount, d.provider_status),
              },
              {
                header: t('reconciliation.ledgerSide'),
                cell: (d) => side(d.ledger_amount, d.ledger_status),
              },
            ]}
          />
          <h2>{t('reconciliationMerchants.title')}</h2>
          <p data-testid="reconciliation-merchants">
            {t('reconciliationMerchants.total', {
              count: answer.data.merchants.count,
              balance: format.money(answer.data.merchants.balance, CASH_CURRENCY),
              settling: format.money(answer.data.merchants.settling, CASH_CURRENCY),
            })}
          </p>
          <DataTable
            rows={answer.data.merchants.differences}
            rowKey={(d) => d.merchant}
            empty={<span role="status">{t('reconciliationMerchants.noDifferences')}</span>}
            columns={[
              { header: t('reconciliationMerchants.merchant'), cell: (d) => d.name },
              {
                header: t('reconciliation.ledgerSide'),
                cell: (d) => format.money(d.ledger_balance, CASH_CURRENCY),
              },
              {
                header: t('reconciliationMerchants.expected'),
                cell: (d) => format.money(d.expected, CASH_CURRENCY),
              },
            ]}
          />
        </>
      )}
    </>
  );
}
