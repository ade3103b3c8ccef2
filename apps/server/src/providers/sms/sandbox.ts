/**
 * The sandbox SMS gateway: instead of a phone, messages land in an outbox table that the
 * `/sandbox/sms` page reads (docs/decisions/api.md#running-it-contracts-that-tests-rely-on). Honest and
 * observable, never a stub.
 */
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { OutboxMessage, SmsProvider } from './sms-provider.ts';

export class SandboxSmsProvider implements SmsProvider {
  readonly id = 'sandbox';
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async send(message: { phone: string; text: string; code: string }): Promise<void> {
    await this.#db.query(
      'INSERT INTO sandbox_sms_outbox (phone, text, code, created_at) VALUES ($1, $2, $3, $4)',
      [message.phone, message.text, message.code, this.#clock.now()],
    );
  }

  /** One phone's messages, newest first. */
  async outbox(phone: string, limit = 50): Promise<OutboxMessage[]> {
    const { rows } = await this.#db.query<OutboxMessage & { id: bigint }>(
      `SELECT phone, text, code, created_at FROM sandbox_sms_outbox
       WHERE phone = $1 ORDER BY id DESC LIMIT $2`,
      [phone, limit],
    );
    return rows;
  }
}
