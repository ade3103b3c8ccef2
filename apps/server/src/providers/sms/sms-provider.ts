/** Sends a text to a phone. A real gateway adapter (SMS.ru, SMSC, Twilio) implements the same. */
export interface SmsProvider {
  readonly id: string;
  send(message: { phone: string; text: string; code: string }): Promise<void>;
}
