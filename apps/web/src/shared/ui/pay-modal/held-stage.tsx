/**
 * The pay modal's stage for a held operation: why, as a short list, and what comes next. Waiting for
 * the trusted person, it follows the hold live (the stream asks 'holds' again on every notice), so
 * an approval or a decline shows here at once.
 */
import './held-stage.css';
import type { HeldAnswer } from '@e-wallet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { callOk } from '../../api/client.ts';
import { pathTo } from '../../routes.ts';
import { Button } from '../button.tsx';
import { ResultView } from './stage-views.tsx';

// The holds feature's own list, under its key: the live stream asks it again on every notice.
const holdsQuery = queryOptions({
  queryKey: ['holds'],
  queryFn: ({ signal }) => callOk('holds', { signal }),
});
const OPEN_HOLD = new Set(['held', 'awaiting_approval']);

/** The reasons one by one, in the server's words (it names the trusted person). */
export function HoldReasons({ reasons, testId }: { reasons: readonly string[]; testId?: string }) {
  return (
    <ul className="hold-reasons" data-testid={testId}>
      {reasons.map((reason) => (
        <li key={reason}>{reason}</li>
      ))}
    </ul>
  );
}

export function HeldStage({ held, onClose }: { held: HeldAnswer; onClose: () => void }) {
  const { t } = useTranslation();
  const { data } = useQuery(holdsQuery);
  const status = data?.results.find((hold) => hold.id === held.hold_id)?.status ?? held.status;
  const closed = OPEN_HOLD.has(status) ? null : status;
  const tone = closed === null ? 'held' : closed === 'released' ? 'success' : 'failed';
  return (
    <ResultView
      tone={tone}
      title={
        closed !== null
          ? t(`holds.status.${closed}`)
          : t(status === 'held' ? 'holds.heldTitle' : 'holds.awaitingTitle')
      }
      actions={
        <>
          {closed === null && (
            <Link
              to={`${pathTo('Holds')}?id=${encodeURIComponent(held.hold_id)}`}
              className="button button--primary"
              onClick={onClose}
            >
              {t('holds.open')}
            </Link>
          )}
          <Button variant={closed === null ? 'secondary' : 'primary'} onClick={onClose}>
            {t('holds.close')}
          </Button>
        </>
      }
    >
      {closed !== null && closed !== 'awaiting_approval' && closed !== 'held' ? (
        <p className="pay-stage__text pay-stage__message" data-testid="pay-held-outcome">
          {t(`holds.outcome.${closed}`)}
        </p>
      ) : (
        <>
          <HoldReasons reasons={held.reason_list} testId="pay-held-reason" />
          <p className="pay-stage__text">{t(status === 'held' ? 'holds.heldText' : 'holds.awaitingText')}</p>
        </>
      )}
    </ResultView>
  );
}
