import './phone-field.css';
import type { Country } from '../phone/country.ts';

/** A country's flag; decorative, the name or dial code beside it says what it is. */
export function Flag({ country }: { country: Country }) {
  if (!country.flag) return <span className="flag flag--none" aria-hidden="true" />;
  return <img className="flag" src={country.flag} alt="" width={24} height={16} loading="lazy" />;
}
