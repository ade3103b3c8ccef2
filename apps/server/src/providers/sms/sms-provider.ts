/** Sends a text to a phone. A real gateway adapter (SMS.ru, SMSC, Twilio) implements the same. */
export interface SmsProvider {
  readonly id: string;
  /** `code` is the code the text carries ('' for a notice); a gateway keeps it only in the text. */
  send(message: { phone: string; text: string; code: string }): Promise<void>;
  /** Stops background work (status queries) at shutdown. */
  close?(): void;
  /** A provider that keeps what it sent (the sandbox): the texts a phone received, newest first. */
  readonly outbox?: (phone: string) => Promise<OutboxMessage[]>;
}

export interface OutboxMessage {
  phone: string;
  text: string;
  code: string;
  created_at: Date;
}
