/**
 * Request and answer shapes of every call (docs/product.md#calls and docs/decisions/api.md#the-api), one
 * file a topic under schemas/. Requests are strict: an unknown field is an error, never silently ignored.
 */

export * from './schemas/account.ts';
export * from './schemas/auth.ts';
export * from './schemas/common.ts';
export * from './schemas/documents.ts';
export * from './schemas/exchange.ts';
export * from './schemas/identification.ts';
export * from './schemas/live.ts';
export * from './schemas/money-flow.ts';
export * from './schemas/passkeys.ts';
export * from './schemas/providers.ts';
export * from './schemas/requests.ts';
export * from './schemas/wallet.ts';
