/**
 * The part every real SMS gateway shares: a text is recorded (without its body) in sms_messages,
 * handed to the gateway in the background with retries and backoff on network errors and 5xx
 * answers, and its delivery status asked for afterwards. send() never waits for the gateway: a
 * sign-in call answers in the same time whether or not a text goes out (docs/security.md).
 */
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { SmsProvider } from './sms-provider.ts';

export type DeliveryStatus = 'sending' | 'sent' | 'delivered' | 'failed';

/** What a gateway said about one attempt or status query. */
export type GatewayAnswer =
  | { kind: 'accepted'; messageId: string; providerStatus: string }
  | { kind: 'final'; status: 'delivered' | 'failed'; providerStatus: string }
  | { kind: 'pending'; providerStatus: string }
  /** A temporary refusal (the gateway's own "try later"): retried like a network error. */
  | { kind: 'retry'; providerStatus: string };

export interface GatewayTiming {
  /** Attempts to hand a text over before it is failed. */
  attempts: number;
  /** Backoff before the n-th retry: base * 2^(n-1) milliseconds. */
  backoffMs: number;
  /** Delays of the status queries after the gateway accepted a text. */
  statusPollMs: number[];
}

export const DEFAULT_TIMING: GatewayTiming = {
  attempts: 4,
  backoffMs: 1000,
  statusPollMs: [10_000, 60_000, 300_000],
};

/** Network errors and timeouts: the request may not have reached the gateway. */
export class GatewayNetworkError extends Error {
  override name = 'GatewayNetworkError';
}

const REQUEST_TIMEOUT_MS = 10_000;

/** POSTs a form to the gateway and answers its JSON; network failures and 5xx throw GatewayNetworkError. */
export async function postForm(url: string, form: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new GatewayNetworkError(error instanceof Error ? error.name : 'network');
  }
  if (response.status >= 500) throw new GatewayNetworkError(`HTTP ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new GatewayNetworkError(`HTTP ${response.status}: not JSON`);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

export abstract class HttpSmsGateway implements SmsProvider {
  abstract readonly id: string;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #timing: GatewayTiming;
  readonly #inFlight = new Set<Promise<void>>();
  #closed = false;

  constructor(db: Db, clock: Clock, timing: GatewayTiming = DEFAULT_TIMING) {
    this.#db = db;
    this.#clock = clock;
    this.#timing = timing;
  }

  /** One attempt to hand a text to the gateway. */
  protected abstract submit(phone: string, text: string): Promise<GatewayAnswer>;
  /** The gateway's current status of an accepted text. */
  protected abstract status(messageId: string, phone: string): Promise<GatewayAnswer>;

  async send(message: { phone: string; text: string; code: string }): Promise<void> {
    const work = this.#deliver(message.phone, message.text, message.code ? 'code' : 'notice').catch(() => {});
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
  }

  /** Resolves when every text handed to send() has been delivered, failed, or given up on (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }

  /** Stops waiting between status queries (shutdown); texts already accepted keep their last status. */
  close(): void {
    this.#closed = true;
  }

  async #deliver(phone: string, text: string, kind: 'code' | 'notice'): Promise<void> {
    const now = this.#clock.now();
    const { rows } = await this.#db.query<{ id: string }>(
      `INSERT INTO sms_messages (provider, phone, kind, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'sending', $4, $4) RETURNING id`,
      [this.id, phone, kind, now],
    );
    const id = rows[0]!.id;
    let answer: GatewayAnswer | null = null;
    let lastError = 'network';
    for (let attempt = 1; attempt <= this.#timing.attempts; attempt += 1) {
      if (attempt > 1) await sleep(this.#timing.backoffMs * 2 ** (attempt - 2));
      await this.#db.query('UPDATE sms_messages SET attempts = $2, updated_at = $3 WHERE id = $1', [
        id,
        attempt,
        this.#clock.now(),
      ]);
      try {
        answer = await this.submit(phone, text);
      } catch (error) {
        if (!(error instanceof GatewayNetworkError)) throw error;
        lastError = error.message;
        answer = null;
        continue;
      }
      if (answer.kind !== 'retry') break;
      lastError = answer.providerStatus;
      answer = null;
    }
    if (!answer || answer.kind === 'pending') {
      await this.#record(id, 'failed', answer?.providerStatus ?? lastError);
      return;
    }
    if (answer.kind === 'final') {
      await this.#record(id, answer.status, answer.providerStatus);
      return;
    }
    if (answer.kind !== 'accepted') return;
    await this.#record(id, 'sent', answer.providerStatus, answer.messageId);
    await this.#follow(id, answer.messageId, phone);
  }

  /** Asks the gateway for the text's status after each delay until it is final. */
  async #follow(id: string, messageId: string, phone: string): Promise<void> {
    for (const delay of this.#timing.statusPollMs) {
      await sleep(delay);
      if (this.#closed) return;
      let answer: GatewayAnswer;
      try {
        answer = await this.status(messageId, phone);
      } catch {
        continue;
      }
      if (answer.kind === 'final') {
        await this.#record(id, answer.status, answer.providerStatus);
        return;
      }
      await this.#db.query('UPDATE sms_messages SET provider_status = $2, updated_at = $3 WHERE id = $1', [
        id,
        answer.providerStatus,
        this.#clock.now(),
      ]);
    }
  }

  async #record(
    id: string,
    status: DeliveryStatus,
    providerStatus: string,
    messageId?: string,
  ): Promise<void> {
    await this.#db.query(
      `UPDATE sms_messages SET status = $2, provider_status = $3,
              provider_message_id = coalesce($4, provider_message_id), updated_at = $5
       WHERE id = $1`,
      [id, status, providerStatus.slice(0, 200), messageId ?? null, this.#clock.now()],
    );
  }
}

/** A gateway's delivery code as our status: its own delivered and failed codes are final, the rest pending. */
export function deliveryAnswer(
  gateway: string,
  code: number | undefined,
  codes: { delivered: ReadonlySet<number>; failed: ReadonlySet<number> },
): GatewayAnswer {
  const providerStatus = `${gateway}:${code ?? 'none'}`;
  if (code !== undefined && codes.delivered.has(code))
    return { kind: 'final', status: 'delivered', providerStatus };
  if (code !== undefined && codes.failed.has(code))
    return { kind: 'final', status: 'failed', providerStatus };
  return { kind: 'pending', providerStatus };
}
