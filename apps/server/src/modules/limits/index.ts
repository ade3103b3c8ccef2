/**
 * Rate limits (counters by key and window); the money limits are db/functions/limits.sql.
 * The public face of this module: other modules and the app import only this file.
 */
export { addressKey, hit, peek, purgeExpired } from './limits.ts';
