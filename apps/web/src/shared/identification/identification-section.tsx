/**
 * The identification section (docs/product.md 'Settings / identification section',
 * docs/product.md#states-and-transitions): the level in words, the remaining limits, the status of the latest
 * verification and the one action that fits it: refresh the status, upgrade, or retry after a refusal.
 * Shared, because the profile panel and the Settings route both show it; which texts and buttons appear is
 * decided by `identificationState` (unit-tested).
 */
import './identification.css';
import { clsx } from 'clsx';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../api/auth-info.ts';
import { formatMoney } from '../format/money.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { AreaError, AreaLoading } from '../ui/area.tsx';
import { Button } from '../ui/button.tsx';
import { FieldError } from '../ui/text-field.tsx';
import { useRefreshStatus, useStartUpgrade } from './identification-calls.ts';
import { identificationState } from './identification-state.ts';

export interface IdentificationSectionProps {
  /** The heading's level where the section sits: 3 in the profile panel, 2 on Settings. */
  headingLevel?: 2 | 3;
  className?: string;
}

export function IdentificationSection({ headingLevel = 3, className }: IdentificationSectionProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const titleId = useId();
  const { data: user, isPending, isError, refetch } = useAuthInfo();
  const upgrade = useStartUpgrade();
  const refresh = useRefreshStatus();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  if (isPending) return <AreaLoading rows={2} />;
  if (isError || !user) return <AreaError onRetry={() => refetch()} />;

  const state = identificationState(user);
  const { limits } = user;
  const money = (amount: string) => formatMoney(amount, limits.currency_code, language);
  const refused = upgrade.data?.kind === 'refused' ? upgrade.data.message : null;
  const failure = refused ?? upgrade.error?.message ?? refresh.error?.message ?? null;
  // After a successful call the browser is leaving (to the provider's page, or reloading): stay busy.
  const leaving = (upgrade.data?.kind === 'redirect' && !!upgrade.data.url) || refresh.isSuccess;
  const busy = upgrade.isPending || refresh.isPending || leaving;

  return (
    <div className={clsx('identification', className)} data-testid="identification">
      <Heading id={titleId} className="identification__title">
        {t('identification.title')}
      </Heading>
      <p className="identification__level">
        <span className="identification__label">{t('identification.level')}</span>
        <span
          className={`identification__badge identification__badge--${state.level}`}
          data-testid="identification-level"
          data-level={state.level}
        >
          {t(`identification.levels.${state.level}`)}
        </span>
      </p>

      {state.statusText && (
        <div
          className={clsx('identification__status', `identification__status--${state.statusText}`)}
          data-testid="identification-status"
          data-status={state.status}
        >
          <p className="identification__status-text">
            {state.statusText === 'unknown'
              ? t('identification.status.unknown', { status: state.status })
              : t(`identification.status.${state.statusText}`)}
          </p>
          {state.targetLevel && state.canRefresh && (
            <p className="identification__status-note">
              {t('identification.target', { level: t(`identification.levels.${state.targetLevel}`) })}
            </p>
          )}
          {state.reason && (
            <p className="identification__status-note" data-testid="identification-reason">
              {t('identification.reason', { reason: state.reason })}
            </p>
          )}
        </div>
      )}

      <dl className="identification__limits">
        <div>
          <dt>{t('identification.balanceMax')}</dt>
          <dd data-testid="limit-balance">{money(limits.balance_max)}</dd>
        </div>
        <div>
          <dt>{t('identification.monthlyLeft')}</dt>
          <dd data-testid="limit-monthly">
            {limits.monthly_outgoing_max === null || limits.monthly_outgoing_left === null
              ? t('identification.noLimit')
              : t('identification.monthlyLeftValue', {
                  left: money(limits.monthly_outgoing_left),
                  max: money(limits.monthly_outgoing_max),
                })}
          </dd>
        </div>
      </dl>
      {!user.is_withdrawal_allowed && (
        <p className="identification__hint">{t('identification.restricted')}</p>
      )}
      {!user.identification_level.ask_for_next && (
        <p className="identification__hint">{t('identification.topLevel')}</p>
      )}

      {(state.canRefresh || state.canUpgrade || state.canRetry) && (
        <div className="identification__actions">
          {state.canUpgrade && (
            <Button
              block
              busy={upgrade.isPending || (leaving && !refresh.isSuccess)}
              disabled={busy}
              onClick={() => upgrade.mutate()}
            >
              {t('identification.upgrade')}
            </Button>
          )}
          {state.canRetry && (
            <Button
              block
              busy={upgrade.isPending || (leaving && !refresh.isSuccess)}
              disabled={busy}
              onClick={() => upgrade.mutate()}
            >
              {t('identification.retry')}
            </Button>
          )}
          {state.canRefresh && (
            <Button
              block
              variant="secondary"
              busy={refresh.isPending || refresh.isSuccess}
              disabled={busy}
              onClick={() => refresh.mutate()}
            >
              {t('identification.refresh')}
            </Button>
          )}
        </div>
      )}
      <FieldError message={failure} />
    </div>
  );
}
