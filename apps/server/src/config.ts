/**
 * Every setting of the server, read from the environment and validated at start.
 * A bad value stops start-up with one clear line naming the variable.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  DEV_PIN_KEY,
  DEV_WEBHOOK_SECRET,
  derivedVapidKeys,
  refuseDevelopmentVapid,
  refusePublishedKeys,
  refuseWeakSecrets,
  vapidPairMatches,
} from './config-keys.ts';
import {
  type LevelName,
  LevelOverrides,
  type LevelRules,
  levelRules,
  levelRulesJson,
} from './policy/levels.ts';

// The keys' rules live beside (config-keys.ts); callers read them through this file.
export { ConfigError, derivedVapidKeys, estimatedBits, publishedSettingValues } from './config-keys.ts';

const secret = z.string().min(16, 'must be at least 16 characters');

const Env = z.object({
  WALLET_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** The address people reach the server at; provider pages redirect back to it. */
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    // node-postgres takes one host: a cluster is reached through one address that leads to its
    // primary (docs/operations.md), and a list of hosts is refused here with this line.
    .refine(
      (url) => !(url.replace(/^postgres(ql)?:\/\//, '').split('/')[0] ?? '').split('@').pop()?.includes(','),
      'must name one host (a HAProxy front of the cluster, see docs/operations.md), not a list',
    )
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /** Port of the metrics listener (GET /metrics, Prometheus); unset: no metrics listener. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Address of the metrics listener: loopback by default, never the public interface. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** The back office's port (its app and /ops/v1), never the public one; 0 picks a free port. */
  OPS_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** Address of the back office's listener: loopback by default (reach it over a VPN or a tunnel). */
  OPS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Server secret sealing the operators' TOTP secrets (a key derived from it); unset: PIN_KEY. */
  OPS_KEY: secret.optional(),
  /** The built back office (apps/backoffice/dist); unset or missing: the API only. */
  BACKOFFICE_DIST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Server secret of the PIN's keyed hash; never stored in the database
   * (docs/decisions/security-rules.md#security-baselines).
   */
  PIN_KEY: secret.optional(),
  PIN_KEY_VERSION: z.coerce.number().int().min(1).default(1),
  /** Server secret that signs receipts' public codes (/verify/<code>); unset: derived from PIN_KEY. */
  RECEIPT_KEY: secret.optional(),
  /** Shared secret of provider webhooks' HMAC signatures. */
  WEBHOOK_SECRET: secret.optional(),
  SMS_PROVIDER: z.enum(['sandbox', 'smsru', 'smsc']).default('sandbox'),
  /** SMS.ru's HTTP API: the account's api_id and the service's address (a local fake in tests). */
  SMSRU_API_ID: z.string().min(1).optional(),
  SMSRU_API_URL: z.url().default('https://sms.ru'),
  /** SMSC.ru's HTTP API: login and password (or API key as psw) and the service's address. */
  SMSC_LOGIN: z.string().min(1).optional(),
  SMSC_PASSWORD: z.string().min(1).optional(),
  SMSC_API_URL: z.url().default('https://smsc.ru'),
  /** Sender name registered with the gateway; unset: the gateway's default. */
  SMS_SENDER: z.string().min(1).max(11).optional(),
  PAYMENTS_PROVIDER: z.enum(['sandbox', 'yookassa']).default('sandbox'),
  PAYOUTS_PROVIDER: z.enum(['sandbox', 'yookassa']).default('sandbox'),
  KYC_PROVIDER: z.enum(['sandbox', 'manual']).default('sandbox'),
  /** Key of the identification documents' photos encrypted at rest (KYC_PROVIDER=manual), 32+ characters. */
  DOCUMENTS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Key of a held withdrawal's card or a GOST payment's account, sealed until its hold ends
   * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person), 32+ characters; unset: derived from
   * PIN_KEY, as OPS_KEY is.
   */
  PAYOUTS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  YOOKASSA_API_URL: z.url().default('https://api.yookassa.ru/v3'),
  YOOKASSA_SHOP_ID: z.string().optional(),
  YOOKASSA_SECRET_KEY: z.string().optional(),
  /**
   * Exchange rates (docs/decisions/exchange.md#exchange-between-ones-own-accounts): fixed sandbox rates, or
   * the Bank of Russia's daily file.
   */
  RATES_PROVIDER: z.enum(['sandbox', 'cbr']).default('sandbox'),
  CBR_URL: z.url().default('https://www.cbr.ru/scripts/XML_daily.asp'),
  /** Minutes between two readings of the rates (each instance reads; the table keeps the latest). */
  RATES_REFRESH_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  /** Quotes are refused (RATES_UNAVAILABLE) when the rates were last read longer ago than this. */
  RATES_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(720).default(72),
  /** The wallet's fee on an exchange, a percent of the amount given, at most 2 decimals (0 to 20). */
  EXCHANGE_SPREAD_PERCENT: z
    .string()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, 'must be a percent like 1.5')
    .refine((text) => Number(text) <= 20, 'must be at most 20')
    .default('1.5'),
  /** Seconds a sandbox payout takes to settle. */
  SANDBOX_PAYOUT_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  /**
   * Whether this instance runs the scheduled transfers' job queue (pg-boss); unset: on, except with
   * WALLET_ENV=test, whose tests start it where they need it.
   */
  SCHEDULE_JOBS: z.enum(['on', 'off']).optional(),
  /** Seconds between the job queue's polls: a run starts within this of its time. */
  SCHEDULE_POLL_SECONDS: z.coerce.number().min(0.5).max(30).default(2),
  /**
   * Antifraud (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): the signs about the session,
   * the device and the amount hold an operation only from this amount in roubles (its equivalent in other
   * currencies); the fraud database applies to every amount.
   */
  ANTIFRAUD_AMOUNT_FLOOR: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be roubles like 10000 or 10000.00')
    .default('10000'),
  /**
   * Whether the signs hold operations; unset: on, except with WALLET_ENV=test, whose other tests move
   * large sums from fresh sessions (the antifraud tests turn it on). The fraud database always applies.
   */
  ANTIFRAUD_SIGNS: z.enum(['on', 'off']).optional(),
  /** The fraud database: the sandbox's test recipients, or the regulator's export read from FRAUD_DB_FILE. */
  FRAUD_DB_PROVIDER: z.enum(['sandbox', 'file']).default('sandbox'),
  FRAUD_DB_FILE: z.string().min(1).optional(),
  /**
   * Whether this instance runs the job system (docs/decisions/jobs.md#one-job-system); unset: SCHEDULE_JOBS,
   * else on, except with WALLET_ENV=test, whose tests drive background work by hand.
   */
  JOBS: z.enum(['on', 'off']).optional(),
  /** Seconds between a queue's polls for new jobs. */
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5).max(30).default(2),
  /** Retries of a failed job before it goes to its dead-letter queue. */
  JOBS_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(5),
  /** Seconds before a failed job's first retry; each next one waits about twice as long. */
  JOBS_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** Seconds after a payout was accepted (and between checks while pending) before its provider is asked. */
  PAYOUT_CHECK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Messages a person may write to support in an hour. */
  SUPPORT_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(30),
  /**
   * The e-money operator shown on the landing page, in the profile and in GET /v2/wallet/terms: its
   * legal name, Bank of Russia licence number and register entry. Required in production; elsewhere
   * sample values stand in (docs/decisions/account.md#a-persons-account).
   */
  OPERATOR_LEGAL_NAME: z.string().min(1).max(200).optional(),
  OPERATOR_LICENCE: z.string().min(1).max(100).optional(),
  OPERATOR_REGISTER_URL: z.url().optional(),
  /** Brand variant (apps/web/brands/<brand>.json); unset: the brand the app in WEB_DIST was built for. */
  BRAND: z.enum(['e-wallet', 'grok']).optional(),
  /** Overrides the version answered at /version.json (default: the build's, else package.json's). */
  APP_VERSION: z.string().min(1).optional(),
  /** The built single-page app to serve; empty to serve none. */
  WEB_DIST: z.string().optional(),
  /**
   * Which X-Forwarded-For entries to believe, as Fastify's trustProxy: `false` (none), a number of
   * trusted hops, or a comma-separated list of proxy addresses/CIDRs. `true` (the client-chosen
   * left-most entry) is refused: any client could pick its own address.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, zctx): false | number | string[] => {
      const text = v.trim();
      if (text === 'false' || text === '0') return false;
      if (/^\d+$/.test(text)) return Number(text);
      const list = text.split(',').map((a) => a.trim());
      if (
        list.length > 0 &&
        list.every((a) => isIP(a.split('/')[0] ?? '') !== 0 && /^[^/]+(\/\d{1,3})?$/.test(a))
      )
        return list;
      zctx.addIssue({
        code: 'custom',
        message:
          'must be false, a number of trusted proxy hops, or a comma-separated list of proxy addresses',
      });
      return z.NEVER;
    }),
  /**
   * Web Push's VAPID key pair (base64url: the 65-byte public point, the 32-byte private key) and the
   * contact push services may write to. Unset outside production: a pair derived from PIN_KEY.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{86,88}$/, 'must be a base64url P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{42,44}$/, 'must be a base64url P-256 private key')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https:// address')
    .default('mailto:support@e-wallet.example'),
  /**
   * Test only: Web Push may reach a push service on this machine over plain http, off the list of
   * known push services (the tests' local fake). Production refuses it.
   */
  PUSH_TEST_SERVICE: z
    .enum(['on', 'off'])
    .optional()
    .transform((v) => v === 'on'),
  /** Hosts Web Push endpoints may be on (comma-separated; a leading dot admits subdomains). */
  PUSH_SERVICE_HOSTS: z
    .string()
    .default('fcm.googleapis.com,.push.services.mozilla.com,.push.apple.com,.notify.windows.com')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /**
   * The merchants' tariff (docs/decisions/merchants.md#merchants): the fee taken from each payment, in
   * hundredths of a percent (150: 1.5%), at most 10%.
   */
  MERCHANT_FEE_BASIS_POINTS: z.coerce.number().int().min(0).max(1000).default(150),
  /**
   * The fee of an СБП transfer (docs/decisions/sbp.md#fees): hundredths of a percent of the amount (0, the
   * default: none; at most 10%), and at least SBP_FEE_MIN_KOPECKS when either is set (a flat fee alone if
   * only the minimum is). modules/sbp/fees.ts computes it; the check, the transfer and the tariffs read it.
   */
  SBP_FEE_BASIS_POINTS: z.coerce.number().int().min(0).max(1000).default(0),
  SBP_FEE_MIN_KOPECKS: z.coerce.number().int().min(0).max(100_000).default(0),
  /**
   * The hour (0-23, Moscow time) the daily job pays each active merchant's whole available balance to its
   * bank account (docs/decisions/merchants.md#settlement).
   */
  MERCHANT_SETTLEMENT_HOUR: z.coerce.number().int().min(0).max(23).default(10),
  /** Caps per client address: receipt checks (/verify/<code>) per minute. */
  VERIFY_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Caps per client address: SMS codes per hour. */
  SMS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  /**
   * Caps per client address: SMS codes checked per hour at sign-in and registration, before any phone
   * is read (the default allows each of the 30 codes an address may be sent its 5 tries).
   */
  CODE_CHECKS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(150),
  /** Overrides of the identification levels' limits (JSON, roubles); see policy/levels.ts. */
  IDENTIFICATION_LIMITS: z
    .string()
    .refine((text) => {
      try {
        return LevelOverrides.safeParse(JSON.parse(text)).success;
      } catch {
        return false;
      }
    }, 'must be JSON like {"anonymous":{"balance_max":15000}}')
    .optional(),
});

export type Env = z.infer<typeof Env>;

export interface Config extends Env {
  BRAND: 'e-wallet' | 'grok';
  VAPID_PUBLIC_KEY: string;
  VAPID_PRIVATE_KEY: string;
  PIN_KEY: string;
  WEBHOOK_SECRET: string;
  OPS_KEY: string;
  PAYOUTS_KEY: string;
  PUBLIC_URL: string;
  appVersion: string;
  production: boolean;
  /** The identification levels' figures in force (IDENTIFICATION_LIMITS over the defaults). */
  levels: Record<LevelName, LevelRules>;
  /** The same figures as the database's limits take them with every money call. */
  levelRulesJson: string;
}

/**
 * A provider's address fit for production: https, or plain http only to this machine's loopback
 * (a local sidecar or, in tests, a fake of the provider's API), where nothing crosses a network.
 */
export function isSecureUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:') return true;
    return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}

export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  appVersion = '0.0.1',
): Config {
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid setting ${issue.path.join('.')}: ${issue.message}`);
  }
  const env = parsed.data;
  const production = env.WALLET_ENV === 'production';
  if (production) {
    refusePublishedKeys(env);
    if (!env.DATABASE_URL)
      throw new ConfigError('Invalid setting DATABASE_URL: required when WALLET_ENV=production');
    for (const name of [
      'SMS_PROVIDER',
      'PAYMENTS_PROVIDER',
      'PAYOUTS_PROVIDER',
      'KYC_PROVIDER',
      'RATES_PROVIDER',
      'FRAUD_DB_PROVIDER',
    ] as const) {
      if (env[name] === 'sandbox')
        throw new ConfigError(
          `Invalid setting ${name}: sandbox providers are refused when WALLET_ENV=production`,
        );
    }
    refuseDevelopmentVapid(env);
    // The operator people see on the landing page and in the profile
    // (docs/decisions/account.md#a-persons-account).
    for (const name of ['OPERATOR_LEGAL_NAME', 'OPERATOR_LICENCE', 'OPERATOR_REGISTER_URL'] as const)
      if (!env[name]) throw new ConfigError(`Invalid setting ${name}: required when WALLET_ENV=production`);
    refuseWeakSecrets(env);
    if (env.PUSH_TEST_SERVICE)
      throw new ConfigError('Invalid setting PUSH_TEST_SERVICE: a test-only setting, refused in production');
    // The signs are the law's check before money leaves (docs/decisions/antifraud.md, 'Antifraud and the trusted person').
    if (env.ANTIFRAUD_SIGNS === 'off')
      throw new ConfigError('Invalid setting ANTIFRAUD_SIGNS: a test-only setting, refused in production');
  }
  if (
    (env.PAYMENTS_PROVIDER === 'yookassa' || env.PAYOUTS_PROVIDER === 'yookassa') &&
    !env.YOOKASSA_SECRET_KEY
  ) {
    throw new ConfigError('Invalid setting YOOKASSA_SECRET_KEY: required with the yookassa provider');
  }
  if (env.SMS_PROVIDER === 'smsru' && !env.SMSRU_API_ID)
    throw new ConfigError('Invalid setting SMSRU_API_ID: required with the smsru provider');
  if (env.SMS_PROVIDER === 'smsc' && (!env.SMSC_LOGIN || !env.SMSC_PASSWORD))
    throw new ConfigError(
      `Invalid setting ${env.SMSC_LOGIN ? 'SMSC_PASSWORD' : 'SMSC_LOGIN'}: required with the smsc provider`,
    );
  if (production) {
    const urls = { smsru: 'SMSRU_API_URL', smsc: 'SMSC_API_URL' } as const;
    const name = env.SMS_PROVIDER === 'sandbox' ? null : urls[env.SMS_PROVIDER];
    if (name && !isSecureUrl(env[name]))
      throw new ConfigError(`Invalid setting ${name}: must be https:// in production`);
    if (env.RATES_PROVIDER === 'cbr' && !isSecureUrl(env.CBR_URL))
      throw new ConfigError('Invalid setting CBR_URL: must be https:// in production');
  }
  // The back office is never served on the public port
  // (docs/decisions/back-office.md#the-operators-back-office).
  if (env.OPS_PORT !== 0 && env.OPS_PORT === env.PORT)
    throw new ConfigError(
      'Invalid setting OPS_PORT: must differ from PORT (the back office is never public)',
    );
  if (env.FRAUD_DB_PROVIDER === 'file' && !env.FRAUD_DB_FILE)
    throw new ConfigError('Invalid setting FRAUD_DB_FILE: required with the file provider');
  if (env.KYC_PROVIDER === 'manual' && !env.DOCUMENTS_KEY)
    throw new ConfigError('Invalid setting DOCUMENTS_KEY: required with the manual provider');
  const build = readBuildInfo(env.WEB_DIST);
  if (env.BRAND && build?.brand && build.brand !== env.BRAND) {
    throw new ConfigError(
      `Invalid setting BRAND: ${env.BRAND}, but the app in WEB_DIST was built for ${build.brand} (build it with BRAND=${env.BRAND})`,
    );
  }
  if (!!env.VAPID_PUBLIC_KEY !== !!env.VAPID_PRIVATE_KEY)
    throw new ConfigError(
      `Invalid setting ${env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'}: set both VAPID keys or neither`,
    );
  if (
    env.VAPID_PUBLIC_KEY &&
    env.VAPID_PRIVATE_KEY &&
    !vapidPairMatches(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY)
  )
    throw new ConfigError('Invalid setting VAPID_PUBLIC_KEY: it is not the public key of VAPID_PRIVATE_KEY');
  const vapid =
    env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
      ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
      : derivedVapidKeys(env.PIN_KEY ?? DEV_PIN_KEY);
  const levels = levelRules(env.IDENTIFICATION_LIMITS);
  return {
    ...env,
    levels,
    levelRulesJson: levelRulesJson(levels),
    BRAND: env.BRAND ?? (build?.brand === 'grok' ? 'grok' : 'e-wallet'),
    PIN_KEY: env.PIN_KEY ?? DEV_PIN_KEY,
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    WEBHOOK_SECRET: env.WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET,
    // Unset: the PIN key, which the back office derives its own key from (ops/operators.ts).
    OPS_KEY: env.OPS_KEY ?? env.PIN_KEY ?? DEV_PIN_KEY,
    // Unset: the PIN key, which crypto/sealed.ts derives a key of its own from (payoutsKey).
    PAYOUTS_KEY: env.PAYOUTS_KEY ?? env.PIN_KEY ?? DEV_PIN_KEY,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    // The version open tabs compare with their own at start-up: a new build picks up a new version.
    appVersion: env.APP_VERSION ?? build?.version ?? appVersion,
    production,
  };
}

/** What the web build records beside its index.html (apps/web/vite.config.ts): its version and brand. */
export function readBuildInfo(webDist: string | undefined): { version?: string; brand?: string } | undefined {
  if (!webDist) return undefined;
  const file = join(webDist, 'build-info.json');
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; brand?: unknown };
    return {
      version: typeof info.version === 'string' && info.version ? info.version : undefined,
      brand: typeof info.brand === 'string' ? info.brand : undefined,
    };
  } catch {
    throw new ConfigError(`Invalid setting WEB_DIST: ${file} is not JSON`);
  }
}
