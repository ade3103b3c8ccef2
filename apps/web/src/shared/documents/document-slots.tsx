/**
 * Where screens offer documents: a receipt button on an operation, a statement button on an
 * account. Shared code and other features never import the documents feature; the app's layout
 * fills these slots with its components, and a screen outside the layout simply shows none.
 */
import { type ComponentType, createContext, useContext } from 'react';

export interface ReceiptSlotProps {
  /** Any id the app has for an operation: a history row's or a money call's receipt's. */
  operationId: string;
  /** 'link' in a list row, 'button' in the pay modal's details. */
  look?: 'link' | 'button';
  /** What the operation is, so each of a list's receipt buttons has its own accessible name. */
  description?: string;
}

export interface StatementSlotProps {
  /** The account chosen on the screen; the dialog lets the person choose another. */
  accountId?: string | null;
  /** An account that is not among the person's (a merchant's): offered alone, under this name. */
  accountLabel?: string;
}

export interface DocumentSlots {
  Receipt: ComponentType<ReceiptSlotProps> | null;
  Statement: ComponentType<StatementSlotProps> | null;
}

const DocumentSlotsContext = createContext<DocumentSlots>({ Receipt: null, Statement: null });

export const DocumentSlotsProvider = DocumentSlotsContext.Provider;

export function ReceiptSlot(props: ReceiptSlotProps) {
  const { Receipt } = useContext(DocumentSlotsContext);
  return Receipt ? <Receipt {...props} /> : null;
}

export function StatementSlot(props: StatementSlotProps) {
  const { Statement } = useContext(DocumentSlotsContext);
  return Statement ? <Statement {...props} /> : null;
}
