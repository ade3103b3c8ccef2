/** The languages every text comes in; a module of its own so a screen can know them without the error table. */
export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
