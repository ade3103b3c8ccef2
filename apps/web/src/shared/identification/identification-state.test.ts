import { describe, expect, it } from 'vitest';
import { identificationState } from './identification-state.ts';

type Level = 'anonymous' | 'simplified' | 'full';

function info(level: Level, status: string | null, reason: string | null = null) {
  return {
    identification_level: { name: level, ask_for_next: level !== 'full' },
    active_identification:
      status === null
        ? null
        : {
            id: '00000000-0000-4000-8000-000000000001',
            status: status as 'pending',
            reason,
            target_level: (level === 'anonymous' ? 'simplified' : 'full') as Level,
            created_at: '2026-11-22T10:00:00.000Z',
          },
  };
}

const buttons = (state: ReturnType<typeof identificationState>) =>
  [state.canUpgrade && 'upgrade', state.canRetry && 'retry', state.canRefresh && 'refresh'].filter(Boolean);

describe('identificationState', () => {
  it('offers the upgrade and no status to a user who never verified', () => {
    const state = identificationState(info('anonymous', null));
    expect(state).toMatchObject({ level: 'anonymous', status: null, statusText: null, reason: null });
    expect(buttons(state)).toEqual(['upgrade']);
  });

  it.each([
    ['pending', 'pending'],
    ['in_review', 'in_review'],
  ])('while a verification is %s: its status, its target and only the refresh button', (status, text) => {
    const state = identificationState(info('anonymous', status));
    expect(state.statusText).toBe(text);
    expect(state.targetLevel).toBe('simplified');
    expect(buttons(state)).toEqual(['refresh']);
  });

  it('after an aborted verification: the status, the reason and the retry button, no refresh', () => {
    const state = identificationState(info('anonymous', 'aborted', 'Документ не прошёл проверку'));
    expect(state.statusText).toBe('aborted');
    expect(state.reason).toBe('Документ не прошёл проверку');
    expect(buttons(state)).toEqual(['retry']);
  });

  it('after a completed verification below full: the status and the upgrade to the next level', () => {
    const state = identificationState(info('simplified', 'complete'));
    expect(state).toMatchObject({ level: 'simplified', statusText: 'complete', reason: null });
    expect(buttons(state)).toEqual(['upgrade']);
  });

  it('at the full level nothing is offered, whatever the last verification did', () => {
    expect(buttons(identificationState(info('full', 'complete')))).toEqual([]);
    expect(buttons(identificationState(info('full', null)))).toEqual([]);
    expect(buttons(identificationState(info('full', 'aborted', 'x')))).toEqual([]);
    expect(identificationState(info('full', 'complete')).statusText).toBe('complete');
  });

  it('an unknown status counts as under way: the raw status and the refresh button', () => {
    const state = identificationState(info('anonymous', 'waiting_for_documents'));
    expect(state.statusText).toBe('unknown');
    expect(state.status).toBe('waiting_for_documents');
    expect(buttons(state)).toEqual(['refresh']);
  });

  it('shows a reason only for an aborted verification', () => {
    expect(identificationState(info('anonymous', 'pending', 'stale text')).reason).toBeNull();
  });
});
