/** Identification. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { PlainText } from '../plain-text.ts';
import { ActiveIdentification, IdentificationLevelName } from './auth.ts';
import { BirthDate, Id } from './common.ts';

export const UpgradeAnswer = z.object({
  status: z.literal('success'),
  message: z.string().optional(),
  verification_url: z.string(),
  active_identification: ActiveIdentification,
});
export const IdentificationStatusAnswer = z.object({
  status: z.literal('success'),
  identification_level: z.object({ name: IdentificationLevelName, ask_for_next: z.boolean() }),
  active_identification: ActiveIdentification.nullable(),
});

/** The document data a person enters for an operator's review (KYC_PROVIDER=manual). */
export const IdentificationDocuments = z.strictObject({
  application_id: Id,
  document_type: z.enum(['passport', 'inn', 'snils']),
  document_number: z.string().min(1).max(20),
  full_name: PlainText(200),
  birth_date: BirthDate,
});

/** Photos are sent one a call, as base64, before the document data; the server checks their bytes. */
export const PHOTO_MAX_BYTES = 3 * 1024 * 1024;
export const IdentificationPhoto = z.strictObject({
  application_id: Id,
  content_type: z.enum(['image/jpeg', 'image/png', 'image/webp']),
  data: z
    .string()
    .min(8)
    .max(Math.ceil(PHOTO_MAX_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/),
});
export const IdentificationPhotoAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  /** How many photos the application has now. */
  photos: z.number().int(),
});
