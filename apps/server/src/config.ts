/**
 * Every setting of the server, read from the environment and validated at start.
 * A bad value stops start-up with one clear line naming the variable.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  type LevelName,
  LevelOverrides,
  type LevelRules,
  levelRules,
  levelRulesJson,
} from './policy/levels.ts';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Server secret of the PIN's keyed hash; never stored in the database (docs/decisions.md section 7). */
  PIN_KEY: secret.optional(),
  PIN_KEY_VERSION: z.coerce.number().int().min(1).default(1),
  /** Server secret that signs receipts' public codes (/verify/<code>); unset: derived from PIN_KEY. */
  RECEIPT_KEY: secret.optional(),
  /** Shared secret of provider webhooks' HMAC signatures. */
  WEBHOOK_SECRET: secret.optional(),
  SMS_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  PAYMENTS_PROVIDER: z.enum(['sandbox', 'yookassa']).default('sandbox'),
  PAYOUTS_PROVIDER: z.enum(['sandbox', 'yookassa']).default('sandbox'),
  KYC_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  YOOKASSA_API_URL: z.url().default('https://api.yookassa.ru/v3'),
  YOOKASSA_SHOP_ID: z.string().optional(),
  YOOKASSA_SECRET_KEY: z.string().optional(),
  /** Seconds a sandbox payout takes to settle. */
  SANDBOX_PAYOUT_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  /** Brand variant (apps/web/brands/<brand>.json); unset: the brand the app in WEB_DIST was built for. */
  BRAND: z.enum(['e-wallet', 'grok']).optional(),
  /** Overrides the version answered at /version.json (default: the build's, else package.json's). */
  APP_VERSION: z.string().min(1).optional(),
  /** The built single-page app to serve; empty to serve none. */
  WEB_DIST: z.string().optional(),
  /** Trust X-Forwarded-For from a proxy in front (per-address limits read the client address). */
  TRUST_PROXY: bool.default(false),
  /** Caps per client address: receipt checks (/verify/<code>) per minute. */
  VERIFY_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Caps per client address: SMS codes per hour. */
  SMS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(30),
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
  PIN_KEY: string;
  WEBHOOK_SECRET: string;
  PUBLIC_URL: string;
  appVersion: string;
  production: boolean;
  /** The identification levels' figures in force (IDENTIFICATION_LIMITS over the defaults). */
  levels: Record<LevelName, LevelRules>;
  /** The same figures as the database's limits take them with every money call. */
  levelRulesJson: string;
}

export class ConfigError extends Error {}

/** Development keys: fine for a laptop and the sandbox, refused in production. */
const DEV_PIN_KEY = 'dev-only-pin-key-change-me-0001';
const DEV_WEBHOOK_SECRET = 'dev-only-webhook-secret-0001';

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
    if (!env.PIN_KEY) throw new ConfigError('Invalid setting PIN_KEY: required when WALLET_ENV=production');
    if (!env.WEBHOOK_SECRET)
      throw new ConfigError('Invalid setting WEBHOOK_SECRET: required when WALLET_ENV=production');
    if (!env.DATABASE_URL)
      throw new ConfigError('Invalid setting DATABASE_URL: required when WALLET_ENV=production');
    for (const name of ['SMS_PROVIDER', 'PAYMENTS_PROVIDER', 'PAYOUTS_PROVIDER', 'KYC_PROVIDER'] as const) {
      if (env[name] === 'sandbox')
        throw new ConfigError(
          `Invalid setting ${name}: sandbox providers are refused when WALLET_ENV=production`,
        );
    }
  }
  if (
    (env.PAYMENTS_PROVIDER === 'yookassa' || env.PAYOUTS_PROVIDER === 'yookassa') &&
    !env.YOOKASSA_SECRET_KEY
  ) {
    throw new ConfigError('Invalid setting YOOKASSA_SECRET_KEY: required with the yookassa provider');
  }
  const build = readBuildInfo(env.WEB_DIST);
  if (env.BRAND && build?.brand && build.brand !== env.BRAND) {
    throw new ConfigError(
      `Invalid setting BRAND: ${env.BRAND}, but the app in WEB_DIST was built for ${build.brand} (build it with BRAND=${env.BRAND})`,
    );
  }
  const levels = levelRules(env.IDENTIFICATION_LIMITS);
  return {
    ...env,
    levels,
    levelRulesJson: levelRulesJson(levels),
    BRAND: env.BRAND ?? (build?.brand === 'grok' ? 'grok' : 'e-wallet'),
    PIN_KEY: env.PIN_KEY ?? DEV_PIN_KEY,
    WEBHOOK_SECRET: env.WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET,
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
