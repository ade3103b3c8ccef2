/**
 * An id: a UUID written 8-4-4-4-12 in hex (any version). The contract's `Id` schema refuses a
 * malformed one at the edge; code that meets an id elsewhere (a cursor, a provider's reference, a
 * route's parameter) tests ID_PATTERN before the database casts it. A module without zod, so the
 * web app can import it (`@e-wallet/contract/ids`) without shipping the schemas.
 */
export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
