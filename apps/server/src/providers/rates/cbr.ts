/**
 * The Bank of Russia's official rates: its daily XML file (CBR_URL, by default
 * https://www.cbr.ru/scripts/XML_daily.asp), Windows-1251, one <Valute> per currency with <CharCode>,
 * <Nominal> and <Value> (a decimal comma: roubles for Nominal units), dated by ValCurs's Date="DD.MM.YYYY".
 * Only the currencies the wallet knows are kept; the file's other fields are not needed.
 */
import { type CurrencyCode, isCurrencyCode } from '@e-wallet/contract';
import { type RatesProvider, type RatesSnapshot, RatesUnavailable } from './rates-provider.ts';

const TIMEOUT_MS = 10_000;

/** Roubles per unit as a decimal string, from the file's Value and Nominal, exact to 10 digits. */
function perUnit(value: string, nominal: string): string | null {
  const match = /^(\d{1,9})(?:[.,](\d{1,10}))?$/.exec(value.trim());
  const units = Number(nominal.trim());
  if (!match || !Number.isInteger(units) || units <= 0 || units > 1_000_000) return null;
  const scale = 10n ** 10n;
  const scaled = BigInt(match[1]!) * scale + BigInt((match[2] ?? '').padEnd(10, '0'));
  const rate = scaled / BigInt(units);
  if (rate <= 0n) return null;
  const whole = rate / scale;
  const fraction = (rate % scale).toString().padStart(10, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** Parses the daily file; throws RatesUnavailable when it holds no usable rate. */
export function parseCbrDaily(xml: string): RatesSnapshot {
  const day = /<ValCurs[^>]*\bDate="(\d{2})\.(\d{2})\.(\d{4})"/.exec(xml);
  const rates: RatesSnapshot['rates'] = {};
  for (const valute of xml.matchAll(/<Valute\b[^>]*>([\s\S]*?)<\/Valute>/g)) {
    const body = valute[1]!;
    const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1];
    const code = field('CharCode')?.trim();
    const value = field('Value');
    const nominal = field('Nominal') ?? '1';
    if (!code || !value || !isCurrencyCode(code) || code === 'RUB') continue;
    const rate = perUnit(value, nominal);
    if (rate) rates[code as CurrencyCode] = rate;
  }
  if (Object.keys(rates).length === 0) throw new RatesUnavailable('the daily file holds no known currency');
  return { date: day ? `${day[3]}-${day[2]}-${day[1]}` : null, rates };
}

export class CbrRatesProvider implements RatesProvider {
  readonly id = 'cbr';
  readonly #url: string;
  constructor(url: string) {
    this.#url = url;
  }

  async fetch(): Promise<RatesSnapshot> {
    let response: Response;
    try {
      response = await fetch(this.#url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new RatesUnavailable((error as Error).message);
    }
    if (!response.ok) throw new RatesUnavailable(`HTTP ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    // The file says encoding="windows-1251"; the fields read here are ASCII either way.
    let text: string;
    try {
      text = new TextDecoder('windows-1251').decode(bytes);
    } catch {
      text = new TextDecoder('latin1').decode(bytes);
    }
    return parseCbrDaily(text);
  }
}
