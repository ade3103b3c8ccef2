/**
 * Scheduled transfers, shared by the schedules page and a savings goal's regular deposit
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers and
 * docs/decisions/managing-money.md#managing-money-categories-budgets-goals): GET/POST /v2/wallet/schedule,
 * pause, resume, DELETE.
 */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callOk } from '../api/client.ts';

export const schedulesQuery = () =>
  queryOptions({
    queryKey: ['schedules'],
    queryFn: ({ signal }) => callOk('scheduleList', { signal }),
  });

export function createSchedule(body: BodyOf<'scheduleCreate'>) {
  return callOk('scheduleCreate', { body });
}

export function changeSchedule(id: string, change: 'pause' | 'resume' | 'delete') {
  if (change === 'delete') return callOk('scheduleDelete', { params: { id } });
  return callOk(change === 'pause' ? 'schedulePause' : 'scheduleResume', { params: { id } });
}
