/** One's own data as a PDF: each part of the JSON export a titled section, its records label and value rows. */
import { formatPhone, type Language } from '@e-wallet/contract';
import { operatorOf } from '../../policy/operator.ts';
import { type PdfSection, printedTime, sectionsPdf } from '../documents/index.ts';
import { deviceName } from '../notifications/index.ts';
import type { PersonalData } from './service.ts';
import { AUTHORS, GENERATED, LABELS, NO, NONE, PAGE, SECTIONS, TITLE, YES } from './texts.ts';

type Row = [string, string];
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Values a person reads better than the JSON keeps them: a phone spaced, a browser by its name. */
function printedField(key: string, value: unknown, language: Language): string {
  if (typeof value === 'string' && value !== '') {
    if (key === 'phone') return formatPhone(value);
    if (key === 'user_agent') return deviceName(value);
    if (key === 'author') return AUTHORS[value]?.[language] ?? value;
  }
  return printed(value, language);
}

function printed(value: unknown, language: Language): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return (value ? YES : NO)[language];
  if (typeof value === 'string' && DATE_TIME.test(value)) return printedTime(new Date(value), language);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The rows of one record: its fields in order, nested records flattened under their own label. */
function rowsOf(record: Record<string, unknown>, language: Language, prefix = ''): Row[] {
  return Object.entries(record).flatMap(([key, value]): Row[] => {
    const label = `${prefix}${LABELS[key]?.[language] ?? key}`;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return rowsOf(value as Record<string, unknown>, language, `${label}: `);
    return [[label, printedField(key, value, language)]];
  });
}

function sectionOf(key: string, value: unknown, language: Language): PdfSection[] {
  const title = SECTIONS[key]?.[language] ?? LABELS[key]?.[language] ?? key;
  if (Array.isArray(value))
    return [{ title, items: value.map((item) => rowsOf(item as Record<string, unknown>, language)) }];
  const record = value as Record<string, unknown>;
  // A part made of lists (identification, requests): each list a section of its own.
  const lists = Object.entries(record).filter(([, child]) => Array.isArray(child));
  const fields = Object.fromEntries(Object.entries(record).filter(([, child]) => !Array.isArray(child)));
  return [
    ...(Object.keys(fields).length > 0 ? [{ title, items: [rowsOf(fields, language)] }] : []),
    ...lists.map(([child, items]) => ({
      title: `${title}: ${LABELS[child]?.[language] ?? child}`,
      items: (items as Record<string, unknown>[]).map((item) => rowsOf(item, language)),
    })),
  ];
}

export function personalDataPdf(data: PersonalData, brand: string, language: Language): Promise<Buffer> {
  const { generated_at, ...parts } = data;
  const sections = Object.entries(parts).flatMap(([key, value]) => sectionOf(key, value, language));
  return sectionsPdf(
    TITLE[language],
    `${GENERATED[language]}: ${printed(generated_at, language)}`,
    sections,
    operatorOf(brand, language),
    language,
    PAGE[language],
    NONE[language],
  );
}
