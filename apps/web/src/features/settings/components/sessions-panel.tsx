/**
 * Active sessions: each device with when it signed in and was last active, 'this device' for the
 * current one; sign out one other session, or every other device at once.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { FieldError } from '../../../shared/ui/text-field.tsx';
import { useEndOtherSessions, useEndSession, useSessions } from '../api/sessions.ts';
import { deviceName } from '../user-agent.ts';

type Session = AnswerOf<'sessions'>['results'][number];

export function SessionsPanel() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [done, setDone] = useState<string | null>(null);
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  // This device first, then the others as the server orders them (most recently active first).
  const ordered = sessions.data ? [...sessions.data.filter((session) => session.current), ...others] : [];
  const failure = endOne.error?.message ?? endOthers.error?.message ?? null;

  return (
    <section className="panel settings-panel" aria-labelledby="settings-sessions-title">
      <h2 id="settings-sessions-title" className="panel__title">
        {t('settings.sessions.title')}
      </h2>
      <p className="settings-panel__hint">{t('settings.sessions.hint')}</p>
      {sessions.isPending ? (
        <AreaLoading rows={2} />
      ) : sessions.isError ? (
        <AreaError onRetry={() => sessions.refetch()} />
      ) : (
        <>
          <ul className="session-list" data-testid="session-list">
            {ordered.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                ending={endOne.isPending && endOne.variables === session.id}
                disabled={endOne.isPending || endOthers.isPending}
                onEnd={() =>
                  endOne.mutate(session.id, { onSuccess: () => setDone(t('settings.sessions.ended')) })
                }
              />
            ))}
          </ul>
          {others.length > 0 ? (
            <Button
              variant="secondary"
              block
              busy={endOthers.isPending}
              disabled={endOne.isPending}
              onClick={() =>
                endOthers.mutate(undefined, { onSuccess: () => setDone(t('settings.sessions.othersEnded')) })
              }
            >
              {t('settings.sessions.endOthers')}
            </Button>
          ) : (
            <p className="settings-panel__hint">{t('settings.sessions.noOthers')}</p>
          )}
        </>
      )}
      <p className="settings-panel__done" role="status">
        {done}
      </p>
      <FieldError message={failure} />
    </section>
  );
}

export function SessionRow({
  session,
  ending,
  disabled,
  onEnd,
}: {
  session: Session;
  ending: boolean;
  disabled: boolean;
  onEnd: () => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { browser, system } = deviceName(session.user_agent);
  const device =
    browser && system
      ? t('settings.sessions.deviceOn', { browser, system })
      : (browser ?? system ?? t('settings.sessions.unknownDevice'));
  return (
    <li className="session" data-testid="session" data-current={session.current || undefined}>
      <div className="session__main">
        <p className="session__device" title={session.user_agent || undefined}>
          {device}
          {session.current && <span className="session__current">{t('settings.sessions.thisDevice')}</span>}
        </p>
        <p className="session__meta">
          {t('settings.sessions.created')}:{' '}
          <time dateTime={session.created_at}>{formatDateTime(session.created_at, language)}</time>
        </p>
        <p className="session__meta">
          {t('settings.sessions.lastUsed')}:{' '}
          <time dateTime={session.last_used_at}>{formatDateTime(session.last_used_at, language)}</time>
        </p>
      </div>
      {!session.current && (
        <Button
          variant="ghost"
          className="session__end"
          busy={ending}
          disabled={disabled}
          aria-label={t('settings.sessions.endLabel', { device })}
          onClick={onEnd}
        >
          {t('settings.sessions.end')}
        </Button>
      )}
    </li>
  );
}
