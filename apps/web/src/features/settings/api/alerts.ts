/**
 * The person's alerts (docs/decisions/live-wallet.md#the-live-wallet): which pushes they get
 * (GET/POST /v2/wallet/notification/settings) and this browser's Web Push subscription
 * (GET /v2/wallet/push/key, POST/DELETE /v2/wallet/push/subscription).
 */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isErrorAnswer } from '../../../shared/api/api-error.ts';
import { callApi, callOk } from '../../../shared/api/client.ts';

export const alertsQuery = queryOptions({
  queryKey: ['notification-settings'],
  queryFn: ({ signal }) => callOk('notificationSettings', { signal }),
});

export function useAlertSettings() {
  return useQuery(alertsQuery);
}

export function useUpdateAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'updateNotificationSettings'>) =>
      callOk('updateNotificationSettings', { body }),
    // The switch moves at once; the server's answer (or a reload after a failure) settles it.
    // The switches only: a PIN sent with the change never goes into the cache.
    onMutate: ({ push_money_in, push_security }) =>
      queryClient.setQueryData(alertsQuery.queryKey, (now) =>
        now
          ? {
              ...now,
              ...(push_money_in === undefined ? {} : { push_money_in }),
              ...(push_security === undefined ? {} : { push_security }),
            }
          : now,
      ),
    onSuccess: (answer) => queryClient.setQueryData(alertsQuery.queryKey, answer),
    onError: () => queryClient.invalidateQueries({ queryKey: alertsQuery.queryKey }),
  });
}

export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The service worker's registration, if the app has one (built apps register sw.js). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  const found = await navigator.serviceWorker.getRegistration('/');
  return found ?? null;
}

/** This browser's subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const found = await registration();
  return found ? found.pushManager.getSubscription() : null;
}

export type PushOutcome = 'on' | 'denied' | 'unsupported' | 'failed' | { refused: string };

/**
 * Asks the person's permission, subscribes with the server's VAPID key and hands the subscription
 * over with the PIN (a new device for alerts is a security change). A refused PIN is its message.
 */
export async function turnPushOn(pin: string): Promise<PushOutcome> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const found = await registration();
  if (!found) return 'unsupported';
  try {
    const { public_key } = await callOk('pushKey');
    const subscription = await found.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlBytes(public_key),
    });
    const json = subscription.toJSON() as BodyOf<'pushSubscribe'>;
    const answer = await callApi('pushSubscribe', {
      body: { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth }, pin },
    });
    if (isErrorAnswer(answer)) {
      await subscription.unsubscribe().catch(() => false);
      return { refused: answer.message };
    }
    return 'on';
  } catch {
    return 'failed';
  }
}

/**
 * Hands this browser's subscription over again, so pushes come in the language now chosen: the
 * server renders each push in the language its subscription was given in.
 */
export async function resendSubscription(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  const json = subscription.toJSON() as BodyOf<'pushSubscribe'>;
  await callOk('pushSubscribe', {
    body: { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } },
  }).catch(() => {});
}

export async function turnPushOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await callOk('pushUnsubscribe', { body: { endpoint: subscription.endpoint } }).catch(() => {});
  await subscription.unsubscribe().catch(() => false);
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
