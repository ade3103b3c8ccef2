/**
 * Identification: raising the level, its status, documents and photos: their calls, as calls.ts assembles them into the one
 * table. Their shapes are in schemas/ (schemas.ts gathers them).
 */
import type { CallDef } from './calls.ts';
import { plainTextCall } from './plain-text.ts';
import * as s from './schemas.ts';

/** Every call refuses control characters in any text it takes (plain-text.ts). */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const identificationCalls = {
  upgradeIdentification: def({
    method: 'POST',
    path: '/v2/wallet/identification-level/upgrade',
    access: 'token',
    tag: 'identification',
    summary: 'Start a verification for the next level; answers verification_url',
    answer: s.UpgradeAnswer,
  }),
  identificationStatus: def({
    method: 'POST',
    path: '/v2/wallet/identification-level/status',
    access: 'token',
    tag: 'identification',
    summary: 'Refresh and answer the status of the active verification',
    answer: s.IdentificationStatusAnswer,
  }),
  submitIdentificationDocuments: def({
    method: 'POST',
    path: '/v2/wallet/identification-level/documents',
    access: 'token',
    tag: 'identification',
    summary: "Send the documents of an operator-reviewed verification (the verification_url's page)",
    body: s.IdentificationDocuments,
    answer: s.IdentificationStatusAnswer,
  }),
  uploadIdentificationPhoto: def({
    method: 'POST',
    path: '/v2/wallet/identification-level/documents/photo',
    access: 'token',
    tag: 'identification',
    summary:
      'Attach a photo of the document (JPEG, PNG or WebP, up to 3 MB, base64) to an operator-reviewed application before its data is sent; at most 3',
    body: s.IdentificationPhoto,
    answer: s.IdentificationPhotoAnswer,
    bodyLimit: 4_300_000,
  }),
} as const satisfies Record<string, CallDef>;
