/**
 * A real provider's own notifications (YooKassa's, unsigned): only the object's id in the body is read;
 * the provider's `verify` asks its API about that object, and only that answer is applied
 * (docs/decisions/security-rules.md#hardening-third-round). Used by the payments and the payouts provider
 * alike.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

export interface UnsignedNotifications<T> {
  path: string;
  /** What the provider's API says about the object the body names; null when it has no such object. */
  verify(body: unknown): Promise<T | null>;
}

/** Registers the provider's notification route; a final state (not pending) is applied. */
export function registerUnsignedNotifications<T extends { status: string }>(
  app: FastifyInstance,
  notifications: UnsignedNotifications<T> | undefined,
  apply: (state: T) => Promise<void>,
): void {
  if (!notifications) return;
  app.post(notifications.path, { schema: { hide: true } }, async (request) => {
    let state: T | null;
    try {
      state = await notifications.verify(request.body);
    } catch (error) {
      // The provider could not be asked: an error makes it send the notification again later.
      throw new AppError('PROVIDER_UNAVAILABLE', {}, `provider notification: ${(error as Error).message}`);
    }
    if (!state) throw new AppError('WEBHOOK_SIGNATURE_INVALID', {}, 'provider notification not verified');
    if (state.status !== 'pending') await apply(state);
    return { status: 'success' };
  });
}
