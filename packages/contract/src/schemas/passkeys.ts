/** Passkeys (WebAuthn). Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { PlainText } from '../plain-text.ts';
import { DateTime, Id } from './common.ts';

const B64url = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]*$/);
/** Options for the browser's navigator.credentials (WebAuthn's JSON form, made by the server). */
export const PasskeyOptions = z.object({
  status: z.literal('success'),
  challenge_id: Id,
  options: z.record(z.string(), z.unknown()),
});
/** A browser's credential in WebAuthn's JSON form (RegistrationResponseJSON / AuthenticationResponseJSON). */
export const WebAuthnResponse = z.strictObject({
  id: B64url,
  rawId: B64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  response: z.strictObject({
    clientDataJSON: B64url,
    attestationObject: B64url.optional(),
    authenticatorData: B64url.optional(),
    signature: B64url.optional(),
    userHandle: B64url.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: B64url.optional(),
  }),
});
export const PasskeyRegisterRequest = z.strictObject({
  challenge_id: Id,
  response: WebAuthnResponse,
  name: PlainText(64).optional(),
});
export const PasskeyConfirmRequest = z.strictObject({ challenge_id: Id, response: WebAuthnResponse });
/** Sign-in with a discoverable passkey: the answer to a challenge from passkeyLoginOptions. */
export const PasskeyLoginRequest = PasskeyConfirmRequest;
export const Passkey = z.object({
  id: Id,
  name: z.string(),
  created_at: DateTime,
  last_used_at: DateTime.nullable(),
  /** Set by a freeze: the passkey neither signs in nor confirms until the owner keeps it. */
  suspended_at: DateTime.nullable(),
  /** The browser and system that added it ('Chrome, Android'); null for one added before this was kept. */
  device: z.string().nullable(),
});
