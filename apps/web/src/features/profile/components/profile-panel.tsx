/**
 * The profile panel of the home layout (docs/product.md 'Home layout'): avatar initial, full name,
 * phone; a profile section with e-mail, phone and register date; sign-out; then the slots other
 * features fill: the identification section and, for the brand 'grok' only, the policy block;
 * last, the e-money operator's identity and licence (docs/decisions/account.md#a-persons-account).
 */
import '../profile.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { formatDate } from '../../../shared/format/date.ts';
import { formatPhone, initialOf } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { pathTo } from '../../../shared/routes.ts';
import { OperatorFacts } from '../../../shared/terms/operator-facts.tsx';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { LogoutIcon } from '../../../shared/ui/icons.tsx';

export interface ProfilePanelProps {
  onLogout: () => void;
  loggingOut?: boolean;
  /** The identification section (its own feature); shown under the profile. */
  identification?: ReactNode;
  /** 'Заблокировать кошелёк' (shared self-protection); shown above sign-out. */
  security?: ReactNode;
  /** The policy block, passed only for the brand 'grok'. */
  policy?: ReactNode;
  id?: string;
}

export function ProfilePanel({
  onLogout,
  loggingOut,
  identification,
  security,
  policy,
  id,
}: ProfilePanelProps) {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const { data: user, isPending, isError, refetch } = useAuthInfo();
  return (
    <aside id={id} className="profile-panel" aria-labelledby="profile-title" tabIndex={-1}>
      <h2 id="profile-title" className="visually-hidden">
        {t('profile.title')}
      </h2>
      {isPending ? (
        <AreaLoading rows={3} />
      ) : isError || !user ? (
        <AreaError message={t('profile.error')} onRetry={() => refetch()} />
      ) : (
        <>
          <div className="profile-panel__card">
            <span className="profile-panel__avatar" aria-hidden="true" data-testid="profile-initial">
              {initialOf(named(user.first_name))}
            </span>
            <p className="profile-panel__name" data-testid="profile-name">
              {named(`${user.first_name} ${user.last_name}`)}
            </p>
            <p className="profile-panel__phone">{formatPhone(user.phone)}</p>
          </div>
          <section className="profile-panel__section" aria-labelledby="profile-section-title">
            <h3 id="profile-section-title" className="profile-panel__section-title">
              {t('profile.section')}
            </h3>
            <dl className="profile-panel__facts">
              <div>
                <dt>{t('profile.email')}</dt>
                <dd data-testid="profile-email">
                  <EmailText email={user.email} />
                </dd>
              </div>
              <div>
                <dt>{t('profile.phone')}</dt>
                <dd>{formatPhone(user.phone)}</dd>
              </div>
              <div>
                <dt>{t('profile.registeredAt')}</dt>
                <dd>
                  <time dateTime={user.registered_at}>{formatDate(user.registered_at, language)}</time>
                </dd>
              </div>
            </dl>
          </section>
        </>
      )}
      {identification && (
        <section className="profile-panel__section profile-panel__slot" data-slot="identification">
          {identification}
        </section>
      )}
      {security && <div className="profile-panel__security">{security}</div>}
      <Link className="button button--ghost profile-panel__support" to={pathTo('Support')}>
        {t('support.open')}
      </Link>
      <button
        type="button"
        className="button button--ghost profile-panel__logout"
        onClick={onLogout}
        disabled={loggingOut}
        aria-busy={loggingOut || undefined}
      >
        <LogoutIcon />
        <span>{t('profile.logout')}</span>
      </button>
      {policy && (
        <section className="profile-panel__slot" data-slot="policy">
          {policy}
        </section>
      )}
      <OperatorFacts className="profile-panel__operator" />
    </aside>
  );
}

/** An e-mail that wraps only at the '@' (and dots after it), never mid-word. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
