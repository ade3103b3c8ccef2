export * from './calls.ts';
export * from './errors.ts';
export * from './ids.ts';
export * from './money.ts';
export * from './ops.ts';
export * from './plain-text.ts';
export * from './qr.ts';
export * from './schemas.ts';
