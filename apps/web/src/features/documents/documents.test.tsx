import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../../shared/i18n/i18n.ts';
import { DocumentSlotsProvider, ReceiptSlot, StatementSlot } from '../../shared/documents/document-slots.tsx';
import { presetDates } from './components/statement-dialog.tsx';
import { documentSlots } from './document-slots.ts';

describe('statement periods', () => {
  const now = new Date(2026, 2, 15, 12, 0);
  it('turns each preset into the days it covers, the last one included', () => {
    expect(presetDates('thisMonth', now)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(presetDates('lastMonth', now)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetDates('last3Months', now)).toEqual({ from: '2026-01-01', to: '2026-03-15' });
    expect(presetDates('thisYear', now)).toEqual({ from: '2026-01-01', to: '2026-03-15' });
    expect(presetDates('lastMonth', new Date(2026, 0, 10))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });
});

describe('document slots', () => {
  it('show nothing outside the layout, and the documents buttons inside it', () => {
    const { unmount } = render(
      <>
        <ReceiptSlot operationId="0f8c2a52-7c3e-4d53-9a51-1b1f0b1c9e01" />
        <StatementSlot accountId={null} />
      </>,
    );
    expect(screen.queryByRole('button')).toBeNull();
    unmount();
    render(
      <DocumentSlotsProvider value={documentSlots}>
        <ReceiptSlot operationId="0f8c2a52-7c3e-4d53-9a51-1b1f0b1c9e01" />
        <StatementSlot accountId={null} />
      </DocumentSlotsProvider>,
    );
    expect(screen.getByRole('button', { name: 'Квитанция' }).getAttribute('aria-haspopup')).toBe('dialog');
    expect(screen.getByRole('button', { name: 'Выписка' })).toBeTruthy();
  });
});
