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
import { defaultPhoneValueOf, phoneValueOf } from './from-e164.ts';

/** The person's own country among the default rows, else the language's default. */
export function ownCountry(ownPhone: string | undefined, language: Language): Country {
  return (
    (ownPhone ? defaultPhoneValueOf(ownPhone, language)?.country : undefined) ?? defaultCountry(language)
  );
}

/** The person's own country from the full list (a number outside the default rows waits for it). */
export function useOwnCountry(): Country {
  const language = currentLanguage();
  const ownPhone = useAuthInfo().data?.phone;
  const [found, setFound] = useState<Country | null>(null);
  useEffect(() => {
    let current = true;
    if (ownPhone && !defaultPhoneValueOf(ownPhone, language))
      void phoneValueOf(ownPhone, language).then((value) => {
        if (current) setFound(value?.country ?? null);
      });
    return () => {
      current = false;
    };
  }, [ownPhone, language]);
  return found ?? ownCountry(ownPhone, language);
}

/** A phone input's state that starts at the person's own country. */
export function useRecipientPhone(): [PhoneValue, (value: PhoneValue) => void] {
  const own = useOwnCountry();
  const [phone, setPhone] = useState<PhoneValue>(() => initialPhoneValue(own));
  const touched = useRef(false);
  // By its code: the default rows are made anew on each render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the country changes only with its code
  useEffect(() => {
    if (!touched.current) setPhone(initialPhoneValue(own));
  }, [own.iso]);
  const set = (value: PhoneValue) => {
    touched.current = true;
    setPhone(value);
  };
  return [phone, set];
}
