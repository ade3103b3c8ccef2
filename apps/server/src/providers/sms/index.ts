import type { Config } from '../../config.ts';
import type { Clock } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { SandboxSmsProvider } from './sandbox.ts';
import type { SmsProvider } from './sms-provider.ts';
import { SmscProvider } from './smsc.ts';
import { SmsRuProvider } from './smsru.ts';

/** The SMS provider chosen by SMS_PROVIDER (config.ts has checked each one's settings). */
export function createSmsProvider(config: Config, db: Db, clock: Clock): SmsProvider {
  switch (config.SMS_PROVIDER) {
    case 'sandbox':
      return new SandboxSmsProvider(db, clock);
    case 'smsru':
      return new SmsRuProvider(
        { apiUrl: config.SMSRU_API_URL, apiId: config.SMSRU_API_ID!, sender: config.SMS_SENDER },
        db,
        clock,
      );
    case 'smsc':
      return new SmscProvider(
        {
          apiUrl: config.SMSC_API_URL,
          login: config.SMSC_LOGIN!,
          password: config.SMSC_PASSWORD!,
          sender: config.SMS_SENDER,
        },
        db,
        clock,
      );
  }
}
