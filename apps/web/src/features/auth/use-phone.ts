/** The phone being entered on an auth form: country (default by language), mask and digits. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhone } from '../../shared/format/person.ts';
import { defaultCountry } from '../../shared/phone/default-country.ts';
import { toE164 } from '../../shared/phone/masks.ts';
import { initialPhoneValue, type PhoneValue } from '../../shared/ui/phone-field.tsx';
import { checkPhone } from './validators.ts';

export function useLanguage(): 'ru' | 'en' {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'ru';
}

export function usePhone() {
  const language = useLanguage();
  const [phone, setPhone] = useState<PhoneValue>(() => initialPhoneValue(defaultCountry(language)));
  // The language switched before anything was typed: the field takes that language's country.
  const [languageSeen, setLanguageSeen] = useState(language);
  if (languageSeen !== language) {
    setLanguageSeen(language);
    if (!phone.digits) setPhone(initialPhoneValue(defaultCountry(language)));
  }
  const mask = phone.country.mask[phone.maskIndex] ?? phone.country.mask[0]!;
  const e164 = toE164(phone.country.code, phone.digits);
  return {
    language,
    phone,
    setPhone,
    e164,
    /** '+7 912 345-67-89': the one phone formatter, as every other screen shows a phone. */
    display: formatPhone(e164),
    problem: () => checkPhone(e164, phone.digits, mask),
  };
}
