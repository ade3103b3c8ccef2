/**
 * Text the wallet takes in and prints (docs/decisions/security-rules.md#hardening-third-round).
 * - In: no text field of any call carries a control character (C0 incl. NUL, DEL, C1): every call of
 *   both tables is made through `plainTextCall`, so each is a 400 FIELD_INVALID
 *   naming the field, before a database or a PDF sees it. Every free text (names, comments, messages,
 *   reasons) is also a `PlainText`, which refuses direction controls (U+202E and its kin) as well.
 * - Out: a name from elsewhere (a GOST QR's payee, an older row) is printed through `displayText`:
 *   controls, bidirectional overrides and isolates, and other invisible format characters removed,
 *   runs of spaces made one, so "Ivan<RLO>gnp.exe" or a name with a newline reads as what it is.
 */
import { z } from 'zod';

/** C0 (with NUL, tab, newline, escape), DEL and C1: Unicode's control category. */
export const CONTROL_CHARACTERS = /\p{Cc}/u;
/** Direction controls: the Arabic letter mark, LRM/RLM, embeddings and overrides (U+202A-U+202E), isolates. */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Free text a person or an operator writes and someone else reads (a name, a comment, a message, a
 * reason): trimmed, within its length, and no control or direction character, so 'Мама<RLO>exe.gnp'
 * cannot read as something else to an operator. A 400 FIELD_INVALID naming the field otherwise.
 */
export function PlainText(max: number, min = 1) {
  return z.string().trim().min(min).max(max).refine(isPlainText, PLAIN_TEXT_ONLY);
}

/** Whether a text holds no control or direction character: PlainText's rule, for text kept as written. */
export function isPlainText(text: string): boolean {
  return !CONTROL_CHARACTERS.test(text) && !BIDI_CONTROLS.test(text);
}
const PLAIN_TEXT_ONLY = { message: 'control and direction characters are not allowed' };

/**
 * A merchant's own key-value notes (a payment's metadata), kept exactly as written (not trimmed), under
 * the same plain-text rule as any free text.
 */
export function PlainTextRecord(keyMax: number, valueMax: number) {
  return z.record(
    z.string().max(keyMax).refine(isPlainText, PLAIN_TEXT_ONLY),
    z.string().max(valueMax).refine(isPlainText, PLAIN_TEXT_ONLY),
  );
}
/** Controls, format characters (bidi embeddings, overrides, isolates and marks, zero-width, BOM) and Hangul fillers. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u115f\u1160\u3164\uffa0]/gu;

/** The path of the first string in a value (however deep) that holds a control character, or null. */
export function controlCharacterPath(
  value: unknown,
  path: (string | number)[] = [],
): (string | number)[] | null {
  if (typeof value === 'string') return CONTROL_CHARACTERS.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = controlCharacterPath(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const found = controlCharacterPath(inner, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** The schema, refusing any string anywhere in what it accepts that holds a control character. */
export function refuseControlCharacters<T extends z.ZodType>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    const path = controlCharacterPath(value);
    if (path) ctx.addIssue({ code: 'custom', path, message: 'control characters are not allowed' });
  }) as T;
}

/** A call whose body, query and params all refuse control characters (calls.ts and ops.ts `def`). */
export function plainTextCall<T extends { body?: z.ZodType; query?: z.ZodType; params?: z.ZodType }>(
  call: T,
): T {
  return {
    ...call,
    ...(call.body ? { body: refuseControlCharacters(call.body) } : {}),
    ...(call.query ? { query: refuseControlCharacters(call.query) } : {}),
    ...(call.params ? { params: refuseControlCharacters(call.params) } : {}),
  };
}

/** A name or text as it may be printed: no controls or invisible direction changes, one space at most. */
export function displayText(text: string): string {
  return text.replace(UNPRINTABLE, ' ').replace(/\s+/g, ' ').trim();
}
