/**
 * The phone a signed-in person types for someone else starts at the country of their own phone
 * (a +7 wallet sends to +7 whatever the interface language); the language's default only while
 * their own number is not known yet, and never over what the person has typed or chosen.
 */
import { useEffect, useRef, useState } from 'react';
import { useAuthInfo } from '../api/auth-info.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { initialPhoneValue, type PhoneValue } from '../ui/phone-field.tsx';
import type { Country, Language } from './country.ts';
import { defaultCountry } from './default-country.ts';
import { phoneValueOf } from './from-e164.ts';

export function ownCountry(ownPhone: string | undefined, language: Language): Country {
  return (ownPhone ? phoneValueOf(ownPhone, language)?.country : undefined) ?? defaultCountry(language);
}

/** A phone input's state that starts at the person's own country. */
export function useRecipientPhone(): [PhoneValue, (value: PhoneValue) => void] {
  const language = currentLanguage();
  const ownPhone = useAuthInfo().data?.phone;
  const [phone, setPhone] = useState<PhoneValue>(() => initialPhoneValue(ownCountry(ownPhone, language)));
  const touched = useRef(false);
  useEffect(() => {
    if (!touched.current && ownPhone) setPhone(initialPhoneValue(ownCountry(ownPhone, language)));
  }, [ownPhone, language]);
  const set = (value: PhoneValue) => {
    touched.current = true;
    setPhone(value);
  };
  return [phone, set];
}
