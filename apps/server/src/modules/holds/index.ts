/**
 * Held operations and the trusted person's approvals: releasing, cancelling and expiring the money the
 * antifraud check held (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { sweepHolds } from './jobs.ts';
export { listApprovals, listHolds, proposeRelease, refuseHold, release } from './service.ts';

export const routes = modulePlugin('holds', register);
