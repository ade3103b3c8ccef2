/**
 * A statement as CSV (csv-stringify): UTF-8 with a byte order mark, so Excel reads the Cyrillic; a
 * header row, the opening balance, one row per operation, the totals and the closing balance, all in
 * the same columns. Russian files use ';' and a decimal comma, as Russian Excel expects; English ','
 * and a decimal point. Rows are written as they arrive, waiting whenever the reader is behind.
 */
import { once } from 'node:events';
import { formatAmount, type Language, walletClock } from '@e-wallet/contract';
import { type Stringifier, stringify } from 'csv-stringify';
import { describeEntry, type StatementHead, type StatementLine } from './service.ts';
import { textsOf } from './texts.ts';

export const CSV_COLUMNS: Record<Language, string[]> = {
  ru: ['Дата и время (МСК)', 'Операция', 'Тип', 'Сумма', 'Валюта', 'Остаток', 'Номер операции'],
  en: ['Date and time (MSK)', 'Operation', 'Type', 'Amount', 'Currency', 'Balance', 'Operation number'],
};

export function csvDelimiter(language: Language): string {
  return language === 'ru' ? ';' : ',';
}

export function statementCsv(
  head: StatementHead,
  lines: AsyncIterable<StatementLine>,
  language: Language,
): Stringifier {
  const t = textsOf(language);
  const csv = stringify({
    bom: true,
    delimiter: csvDelimiter(language),
    header: true,
    columns: CSV_COLUMNS[language],
  });
  const amount = (minor: bigint) => {
    const text = formatAmount(minor, head.currency);
    return language === 'ru' ? text.replace('.', ',') : text;
  };
  const put = async (row: string[]) => {
    if (!csv.write(row)) await once(csv, 'drain');
  };
  const write = async () => {
    const start = `${head.dateFrom} 00:00:00`;
    await put([start, t.opening, '', '', head.currency, amount(head.opening), '']);
    for await (const line of lines) {
      await put([
        // Sortable Moscow time, as the column's title says.
        walletClock(line.createdAt),
        describeEntry(line.kind, line.amount, line.description, language),
        t.kinds[line.kind]!,
        amount(line.amount),
        head.currency,
        amount(line.balanceAfter),
        line.transferId,
      ]);
    }
    const end = `${head.dateTo} 23:59:59`;
    await put([end, t.moneyIn, '', amount(head.moneyIn), head.currency, '', '']);
    await put([end, t.moneyOut, '', amount(-head.moneyOut), head.currency, '', '']);
    await put([end, t.closing, '', '', head.currency, amount(head.closing), '']);
    csv.end();
  };
  write().catch((error: unknown) => csv.destroy(error as Error));
  return csv;
}
