/**
 * The live wallet: its event stream and web push: their calls, as calls.ts assembles them into the one
 * table. Their shapes are in schemas/ (schemas.ts gathers them).
 */
import type { CallDef } from './calls.ts';
import { plainTextCall } from './plain-text.ts';
import * as s from './schemas.ts';

/** Every call refuses control characters in any text it takes (plain-text.ts). */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const liveCalls = {
  events: def({
    method: 'GET',
    path: '/v2/wallet/events',
    access: 'token',
    tag: 'notifications',
    summary:
      'Server-sent events of the signed-in person (Last-Event-ID resumes; replay_ms catches up a new page)',
    query: s.EventStreamQuery,
    answer: s.EventStreamAnswer,
  }),
  pushKey: def({
    method: 'GET',
    path: '/v2/wallet/push/key',
    access: 'token',
    tag: 'notifications',
    summary: 'The VAPID public key for a Web Push subscription',
    answer: s.PushKeyAnswer,
  }),
  pushSubscribe: def({
    method: 'POST',
    path: '/v2/wallet/push/subscription',
    access: 'token',
    tag: 'notifications',
    summary: 'Keep this browser’s Web Push subscription',
    body: s.PushSubscriptionRequest,
    answer: s.StatusMessage,
  }),
  pushUnsubscribe: def({
    method: 'DELETE',
    path: '/v2/wallet/push/subscription',
    access: 'token',
    tag: 'notifications',
    summary: 'Forget a Web Push subscription',
    body: s.PushUnsubscribeRequest,
    answer: s.StatusMessage,
  }),
  notificationSettings: def({
    method: 'GET',
    path: '/v2/wallet/notification/settings',
    access: 'token',
    tag: 'notifications',
    summary: 'Which pushes the person gets',
    answer: s.NotificationSettings,
  }),
  updateNotificationSettings: def({
    method: 'POST',
    path: '/v2/wallet/notification/settings',
    access: 'token',
    tag: 'notifications',
    summary: 'Change which pushes the person gets (money out cannot be switched off)',
    body: s.NotificationSettingsRequest,
    answer: s.NotificationSettings,
  }),
} as const satisfies Record<string, CallDef>;
