/**
 * Brand variants (docs/product.md 'Auth layout', 'Policy block'): one JSON file per brand beside
 * this one, chosen at build with `BRAND=<name>` (default `e-wallet`). Operators change texts,
 * company, restricted regions and policy documents here, not in code. The build reads the chosen
 * file through `loadBrand` (vite.config.ts) and ships only that brand to the browser as
 * `virtual:brand`.
 */
import { existsSync, readFileSync } from 'node:fs';

/** A text in both of the app's languages. */
export interface LocalText {
  ru: string;
  en: string;
}

export interface PolicyDocument {
  /** Stable id, also the PDF's file name stem: /policy/<brand>/<id>.<lang>.pdf */
  id: string;
  title: LocalText;
  /** The PDF served by the app for each language (a path under apps/web/public). */
  href: LocalText;
}

export interface BrandPolicy {
  company: { name: LocalText; registrationNumber: string; registrationLabel: LocalText };
  documents: PolicyDocument[];
  restrictedRegions: LocalText[];
}

/** Who runs the wallet, as receipts and statements print it: the name and lines of details. */
export interface BrandOperator {
  name: LocalText;
  details: LocalText[];
}

export interface BrandConfig {
  id: string;
  /** The installed app's name and home-screen label (web manifest). */
  name: string;
  shortName: string;
  description: LocalText;
  /** The operator printed on receipts, statements and the public receipt page. */
  operator: BrandOperator;
  themeColor: string;
  backgroundColor: string;
  /** Icons under apps/web/public: any-purpose 192 and 512 px, and a maskable 512 px. */
  icons: { any192: string; any512: string; maskable512: string };
  /** Present only for brands that show the policy block in the profile panel. */
  policy?: BrandPolicy;
}

const BRANDS_DIR = new URL('./', import.meta.url);

function fail(brand: string, what: string): never {
  throw new Error(`Invalid brand configuration brands/${brand}.json: ${what}`);
}

function isLocalText(value: unknown): value is LocalText {
  const text = value as LocalText;
  return (
    typeof text === 'object' &&
    text !== null &&
    typeof text.ru === 'string' &&
    text.ru.trim() !== '' &&
    typeof text.en === 'string' &&
    text.en.trim() !== ''
  );
}

/** Reads and checks `brands/<name>.json`; a missing file or field stops the build with one clear line. */
export function loadBrand(name: string): BrandConfig {
  if (!/^[a-z0-9-]+$/.test(name)) fail(name, 'BRAND must be lower-case letters, digits and dashes');
  const file = new URL(`${name}.json`, BRANDS_DIR);
  if (!existsSync(file)) throw new Error(`Unknown BRAND "${name}": no file apps/web/brands/${name}.json`);
  const brand = JSON.parse(readFileSync(file, 'utf8')) as BrandConfig;
  if (brand.id !== name) fail(name, `id must be "${name}"`);
  for (const key of ['name', 'shortName', 'themeColor', 'backgroundColor'] as const) {
    if (typeof brand[key] !== 'string' || brand[key] === '') fail(name, `${key} is required`);
  }
  if (!isLocalText(brand.description)) fail(name, 'description needs ru and en');
  if (
    !isLocalText(brand.operator?.name) ||
    !Array.isArray(brand.operator.details) ||
    !brand.operator.details.every(isLocalText)
  )
    fail(name, 'operator needs name and details in ru and en');
  const publicDir = new URL('../public/', BRANDS_DIR);
  for (const icon of Object.values(brand.icons ?? {})) {
    if (!existsSync(new URL(icon.replace(/^\//, ''), publicDir)))
      fail(name, `icon ${icon} is not in public/`);
  }
  if (brand.policy) {
    const { company, documents, restrictedRegions } = brand.policy;
    if (
      !isLocalText(company?.name) ||
      !company.registrationNumber ||
      !isLocalText(company.registrationLabel)
    ) {
      fail(name, 'policy.company needs name, registrationLabel (ru and en) and registrationNumber');
    }
    if (!Array.isArray(documents) || documents.length === 0) fail(name, 'policy.documents is empty');
    for (const document of documents) {
      if (!isLocalText(document.title) || !isLocalText(document.href)) {
        fail(name, `policy document ${document.id} needs title and href in ru and en`);
      }
      for (const href of [document.href.ru, document.href.en]) {
        if (!existsSync(new URL(href.replace(/^\//, ''), publicDir))) fail(name, `${href} is not in public/`);
      }
    }
    if (!Array.isArray(restrictedRegions) || !restrictedRegions.every(isLocalText)) {
      fail(name, 'policy.restrictedRegions must be texts in ru and en');
    }
  }
  return brand;
}
