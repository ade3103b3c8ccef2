/** Sends a text to a phone. A real gateway adapter (SMS.ru, SMSC, Twilio) implements the same. */
export interface SmsProvider {
  readonly id: string;
  /** `code` is the code the text carries ('' for a notice); a gateway keeps it only in the text. */
  send(message: { phone: string; text: string; code: string }): Promise<void>;
  /** Stops background work (status queries) at shutdown. */
  close?(): void;
}
