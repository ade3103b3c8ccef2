/** What the documents feature puts into the shared slots (the app's layout provides them). */
import type { DocumentSlots } from '../../shared/documents/document-slots.tsx';
import { ReceiptButton } from './components/receipt-button.tsx';
import { StatementButton } from './components/statement-button.tsx';

export const documentSlots: DocumentSlots = { Receipt: ReceiptButton, Statement: StatementButton };
