/**
 * A phone for reading, in the app and the back office alike: Russian numbers as +7 999 123‑45‑67,
 * others as given (E.164). No-break spaces and hyphens: a phone never breaks across lines.
 */
export function formatPhone(e164: string): string {
  const russian = /^\+7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(e164);
  if (russian) return `+7\u00a0${russian[1]}\u00a0${russian[2]}\u2011${russian[3]}\u2011${russian[4]}`;
  return e164;
}
