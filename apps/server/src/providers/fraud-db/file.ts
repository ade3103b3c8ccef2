/**
 * The regulator's export read from a file (FRAUD_DB_FILE): one identifier per line, or CSV whose
 * first field is one; a phone (+7..., 8..., 7...), a 16-digit card or a 20-digit account, spaces,
 * hyphens and brackets ignored; lines starting with '#' and a header are skipped. The file is read
 * again when its modification time or size changes (checked at most once a second), so a new export
 * takes effect without a restart; a file that cannot be read keeps the last lists read.
 */
import { readFile, stat } from 'node:fs/promises';
import { type FraudDbProvider, type FraudLists, type FraudRecipient, matchIn } from './fraud-db-provider.ts';

const CHECK_EVERY_MS = 1000;

export function parseFraudList(text: string): FraudLists {
  const phones = new Set<string>();
  const cards = new Set<string>();
  const accounts = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const field = line.split(/[;,\t]/)[0]?.trim() ?? '';
    if (field === '' || field.startsWith('#')) continue;
    const digits = field.replace(/[\s()+-]/g, '');
    if (!/^\d+$/.test(digits)) continue;
    if (digits.length === 16) cards.add(digits);
    else if (digits.length === 20) accounts.add(digits);
    else if (digits.length === 11 && /^[78]/.test(digits)) phones.add(`+7${digits.slice(1)}`);
    else if (digits.length >= 8 && digits.length <= 15 && field.startsWith('+')) phones.add(`+${digits}`);
  }
  return { phones, cards, accounts };
}

export class FileFraudDb implements FraudDbProvider {
  readonly id = 'file';
  #lists: FraudLists = { phones: new Set(), cards: new Set(), accounts: new Set() };
  #version = '';
  #checkedAt = 0;
  #reading: Promise<void> | null = null;

  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
  }

  async listed(recipient: FraudRecipient) {
    await this.#fresh();
    return matchIn(this.#lists, recipient);
  }

  async #fresh(): Promise<void> {
    if (Date.now() - this.#checkedAt < CHECK_EVERY_MS) return;
    this.#reading ??= this.#read().finally(() => {
      this.#reading = null;
    });
    await this.#reading;
  }

  async #read(): Promise<void> {
    try {
      const info = await stat(this.#path);
      const version = `${info.mtimeMs}:${info.size}`;
      if (version !== this.#version) {
        this.#lists = parseFraudList(await readFile(this.#path, 'utf8'));
        this.#version = version;
      }
    } catch (error) {
      console.warn(`fraud database ${this.#path} not read: ${(error as Error).message}`);
    } finally {
      this.#checkedAt = Date.now();
    }
  }
}
