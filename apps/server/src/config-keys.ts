/**
 * The keys' rules of config.ts: the development keys (published here, so refused in production), and
 * what production refuses of any secret: a published or placeholder value, one value for two settings,
 * a key of ours a person could guess.
 */
import { createECDH, createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from './config.ts';

export class ConfigError extends Error {}

/** Development keys: fine for a laptop and the sandbox, refused in production. */
export const DEV_PIN_KEY = 'dev-only-pin-key-change-me-0001';
export const DEV_WEBHOOK_SECRET = 'dev-only-webhook-secret-0001';
/** Keys in production: at least 32 characters (256 bits of a random base64 key is 43). */
const PRODUCTION_KEY_MIN = 32;

/** The development keys are published in this repository: a production server must have its own. */
export function refusePublishedKeys(env: Env): void {
  for (const [name, value, published] of [
    ['PIN_KEY', env.PIN_KEY, DEV_PIN_KEY],
    ['WEBHOOK_SECRET', env.WEBHOOK_SECRET, DEV_WEBHOOK_SECRET],
  ] as const) {
    if (!value) throw new ConfigError(`Invalid setting ${name}: required when WALLET_ENV=production`);
    if (value === published)
      throw new ConfigError(
        `Invalid setting ${name}: the published development key is refused in production`,
      );
    if (value.length < PRODUCTION_KEY_MIN)
      throw new ConfigError(
        `Invalid setting ${name}: must be at least ${PRODUCTION_KEY_MIN} characters in production`,
      );
  }
}

/** The development VAPID pair is derived from the published PIN key: a production server has its own. */
export function refuseDevelopmentVapid(env: Env): void {
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY)
    throw new ConfigError(
      `Invalid setting ${env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'}: required when WALLET_ENV=production`,
    );
  if (env.VAPID_PRIVATE_KEY === derivedVapidKeys(DEV_PIN_KEY).privateKey)
    throw new ConfigError(
      'Invalid setting VAPID_PRIVATE_KEY: the published development key is refused in production',
    );
}

/** The keys this server makes its own use of (not a provider's credential): they must be random. */
const OWN_KEY_SETTINGS = [
  'PIN_KEY',
  'WEBHOOK_SECRET',
  'RECEIPT_KEY',
  'OPS_KEY',
  'DOCUMENTS_KEY',
  'PAYOUTS_KEY',
] as const;
const OWN_KEYS = new Set<string>(OWN_KEY_SETTINGS);
/** The secrets production reads: each must be its own, unpublished and unguessable. */
const SECRET_SETTINGS = [
  ...OWN_KEY_SETTINGS,
  'VAPID_PRIVATE_KEY',
  'YOOKASSA_SECRET_KEY',
  'SMSRU_API_ID',
  'SMSC_PASSWORD',
] as const;
/**
 * What the characters of a key must carry at least, as `estimatedBits` counts: a random key of 32 hex
 * digits counts about 110, of 32 random bytes in base64 about 210; a word or a pattern far less.
 */
const MIN_KEY_BITS = 100;
/** Words of a value written to be replaced, in any example or document. */
const PLACEHOLDER = /change[\s_-]?me|placeholder|example|dev[\s_-]?only|your[\s_-]|x{6,}|<[^>]*>|\.\.\./i;

/** Every value of the repository's example settings files (deploy/*.example), when they are beside us. */
export function publishedSettingValues(
  root = fileURLToPath(new URL('../../../', import.meta.url)),
): string[] {
  const folder = join(root, 'deploy');
  if (!existsSync(folder)) return [];
  const values: string[] = [];
  for (const name of readdirSync(folder)) {
    if (!name.endsWith('.example')) continue;
    for (const line of readFileSync(join(folder, name), 'utf8').split('\n')) {
      const match = /^\s*[A-Z][A-Z0-9_]*\s*=\s*(.*?)\s*$/.exec(line);
      const value = match?.[1]?.replace(/^(['"])(.*)\1$/, '$2');
      if (value) values.push(value);
    }
  }
  return values;
}

/** Shannon entropy of a value's characters times its length: what a random key of its make carries. */
export function estimatedBits(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / value.length) * Math.log2(count / value.length);
  return bits * value.length;
}

/**
 * Production refuses a secret anyone could know: a published one (the development keys, any value in
 * the example files), a placeholder's words, one value for two settings, and a key of ours carrying
 * under MIN_KEY_BITS. One line names the setting.
 */
export function refuseWeakSecrets(env: Env): void {
  const published = new Set([
    DEV_PIN_KEY,
    DEV_WEBHOOK_SECRET,
    derivedVapidKeys(DEV_PIN_KEY).privateKey,
    ...publishedSettingValues(),
  ]);
  const seen = new Map<string, string>();
  for (const name of SECRET_SETTINGS) {
    const value = env[name];
    if (!value) continue;
    if (published.has(value) || PLACEHOLDER.test(value))
      throw new ConfigError(
        `Invalid setting ${name}: a published or placeholder value is refused in production`,
      );
    const other = seen.get(value);
    if (other)
      throw new ConfigError(
        `Invalid setting ${name}: the same value as ${other}; each secret must be its own`,
      );
    seen.set(value, name);
    if (OWN_KEYS.has(name) && (estimatedBits(value) < MIN_KEY_BITS || /^(.+?)\1+$/s.test(value)))
      throw new ConfigError(
        `Invalid setting ${name}: too predictable; use a random key (openssl rand -base64 32)`,
      );
  }
}

/** A VAPID pair derived from a secret (development only): the same keys on every start. */
export function derivedVapidKeys(secret: string): { publicKey: string; privateKey: string } {
  const privateKey = createHmac('sha256', secret).update('vapid key pair').digest();
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: privateKey.toString('base64url'),
  };
}

export function vapidPairMatches(publicKey: string, privateKey: string): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey().equals(Buffer.from(publicKey, 'base64url'));
  } catch {
    return false;
  }
}
