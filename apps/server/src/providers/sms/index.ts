import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { SandboxSmsProvider } from './sandbox.ts';
import type { SmsProvider } from './sms-provider.ts';

/** The SMS provider chosen by SMS_PROVIDER. A real gateway adapter is added as another case. */
export function createSmsProvider(config: Config, db: Db, clock: Clock): SmsProvider {
  switch (config.SMS_PROVIDER) {
    case 'sandbox':
      return new SandboxSmsProvider(db, clock);
  }
}
