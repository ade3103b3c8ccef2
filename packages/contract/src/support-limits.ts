/**
 * The support chat's limits (docs/decisions/support.md#support-chat), a module without zod so the app's chat
 * screen can import it (`@e-wallet/contract/support-limits`) without shipping the schemas.
 */
/** A message's text, in characters (a screen of text; longer is a document, not a message). */
export const SUPPORT_TEXT_MAX = 2000;
export const SUPPORT_IMAGES_MAX = 3;
/** One image's bytes as sent; the app sends photos at most 1600 px, which stay far below it. */
export const SUPPORT_IMAGE_MAX_BYTES = 1_500_000;
