/**
 * Receipts and statements as PDF (pdfkit), in DejaVu Sans from the `dejavu-fonts-ttf` package, so
 * Cyrillic and the rouble sign print on any machine. Every page repeats the operator and the
 * document's header with its page number; a statement is written page by page as its lines arrive.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatAmount, formatMoney, type Language } from '@e-wallet/contract';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { Operator } from '../../policy/operator.ts';
import { describeEntry, type ReceiptFacts, type StatementHead, type StatementLine } from './service.ts';
import { printedDate, printedTime, textsOf } from './texts.ts';

const fontDir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function fontFiles(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(join(fontDir, 'DejaVuSans.ttf')),
    bold: readFileSync(join(fontDir, 'DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const INK = '#101828';
const MUTED = '#5b6475';
const LINE = '#d0d5dd';
const ACCENT = '#1e5bff';

function newDocument(title: string, language: Language): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    autoFirstPage: false,
    bufferPages: false,
    lang: language,
    info: { Title: title, Producer: 'E-Wallet' },
  });
  const { regular, bold } = fontFiles();
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  return doc;
}

/** The operator and the document's title at the top of a page; answers the y below it. */
function pageHeader(doc: PDFKit.PDFDocument, operator: Operator, title: string, pageLabel: string): number {
  const width = A4.width - 2 * MARGIN;
  doc
    .font('bold')
    .fontSize(12)
    .fillColor(INK)
    .text(operator.name, MARGIN, MARGIN, { width: width * 0.6 });
  doc.font('regular').fontSize(8).fillColor(MUTED);
  for (const line of operator.details) doc.text(line, { width: width * 0.6 });
  const bottom = doc.y;
  doc
    .font('bold')
    .fontSize(12)
    .fillColor(ACCENT)
    .text(title, MARGIN + width * 0.6, MARGIN, {
      width: width * 0.4,
      align: 'right',
    });
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(MUTED)
    .text(pageLabel, { width: width * 0.4, align: 'right' });
  const y = Math.max(bottom, doc.y) + 8;
  doc
    .moveTo(MARGIN, y)
    .lineTo(A4.width - MARGIN, y)
    .lineWidth(0.7)
    .strokeColor(LINE)
    .stroke();
  return y + 12;
}

/** A QR code drawn as vector squares, `size` points wide. */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 2;
  const cell = size / (modules.size + 2 * quiet);
  doc.save().rect(x, y, size, size).fill('#ffffff');
  doc.fillColor('#000000');
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell, cell);
    }
  }
  doc.fill().restore();
}

/** One label and value row; answers the y below it. */
function fieldRow(doc: PDFKit.PDFDocument, label: string, value: string, y: number, width: number): number {
  doc.font('regular').fontSize(9).fillColor(MUTED).text(label, MARGIN, y, { width: 170 });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(INK)
    .text(value, MARGIN + 175, y, { width: width - 175 });
  const bottom = Math.max(doc.y, y + 14) + 5;
  doc
    .moveTo(MARGIN, bottom - 2)
    .lineTo(MARGIN + width, bottom - 2)
    .lineWidth(0.4)
    .strokeColor(LINE)
    .stroke();
  return bottom + 3;
}

/** The whole receipt, one page, as a Buffer. */
export async function receiptPdf(
  facts: ReceiptFacts,
  verifyUrl: string,
  operator: Operator,
  language: Language,
): Promise<Buffer> {
  const t = textsOf(language);
  const doc = newDocument(`${t.receiptTitle} ${facts.transferId}`, language);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  doc.addPage();
  let y = pageHeader(doc, operator, t.receiptTitle, `${t.page} 1`);
  const width = A4.width - 2 * MARGIN;
  const amount = formatMoney(formatAmount(facts.amount, facts.currency), facts.currency, language);
  doc.font('regular').fontSize(10).fillColor(MUTED).text(facts.description, MARGIN, y, { width });
  doc
    .font('bold')
    .fontSize(24)
    .fillColor(INK)
    .text(amount, MARGIN, doc.y + 4, { width });
  y = doc.y + 14;
  const parties = partiesOf(facts, language);
  const rows: [string, string][] = [
    [t.operation, `${t.kinds[facts.kind]} · ${facts.description}`],
    [t.status, t.statuses[facts.status]!],
    [t.date, printedTime(facts.createdAt, language)],
    [t.number, facts.transferId],
    [t.payer, parties.payer],
    [t.payee, parties.payee],
    [t.account, `${facts.accountId} (${facts.currency})`],
    [t.fee, formatMoney(formatAmount(facts.fee, facts.currency), facts.currency, language)],
    [
      t.balanceAfter,
      formatMoney(formatAmount(facts.availableAfter, facts.currency), facts.currency, language),
    ],
  ];
  for (const [label, value] of rows) y = fieldRow(doc, label, value, y, width);
  y += 16;
  const qrSize = 120;
  drawQr(doc, verifyUrl, MARGIN, y, qrSize);
  doc
    .font('bold')
    .fontSize(10)
    .fillColor(INK)
    .text(t.verify, MARGIN + qrSize + 16, y + 8, {
      width: width - qrSize - 16,
    });
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(MUTED)
    .text(t.verifyHint, { width: width - qrSize - 16 });
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(ACCENT)
    .text(verifyUrl, { width: width - qrSize - 16, link: verifyUrl });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** Who paid and who was paid, as a receipt (and the public page) shows them: masked. */
export function partiesOf(facts: ReceiptFacts, language: Language): { payer: string; payee: string } {
  const t = textsOf(language);
  const other = facts.counterparty ?? (facts.kind === 'topup' ? t.topupSource : operatorSide(language));
  return facts.side === 'debit'
    ? { payer: facts.ownName, payee: other }
    : { payer: other, payee: facts.ownName };
}

function operatorSide(language: Language): string {
  return textsOf(language).operator;
}

/**
 * pdfkit keeps every word it lays out, for the document's life: a statement's dates and amounts are
 * new words on every line, so that cache grew with the statement (+26 MiB of live heap at 10,000
 * lines). Without it each word is laid out anew (five times slower); emptied at each page, it stays
 * one page's words. The cache is pdfkit's own field, hence the guarded reach into its fonts.
 */
function forgetLaidOutWords(doc: PDFKit.PDFDocument): void {
  const families = (doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: object }> })
    ._fontFamilies;
  for (const font of Object.values(families ?? {}))
    if (font.layoutCache) font.layoutCache = Object.create(null) as object;
}

/** Waits while the reader is behind, so a long statement never piles up in memory. */
async function drained(doc: PDFKit.PDFDocument): Promise<void> {
  while (doc.readableLength > 1 << 20 && !doc.destroyed) await sleep(5);
}

const ROW = 15;

/** The text cut with an ellipsis to fit a width, measured in the current font (most cells fit at once). */
function fitted(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * A statement as a PDF stream: answered at once, written as the lines arrive. An error while
 * writing destroys the stream (the reader sees a broken download, never a wrong statement).
 */
export function statementPdf(
  head: StatementHead,
  lines: AsyncIterable<StatementLine>,
  operator: Operator,
  language: Language,
): PDFKit.PDFDocument {
  const t = textsOf(language);
  const doc = newDocument(`${t.statementTitle} ${head.dateFrom} — ${head.dateTo}`, language);
  const money = (minor: bigint) => formatMoney(formatAmount(minor, head.currency), head.currency, language);
  const width = A4.width - 2 * MARGIN;
  const columns = [
    { label: t.date, x: MARGIN, width: 116, align: 'left' as const },
    { label: t.operation, x: MARGIN + 120, width: 199, align: 'left' as const },
    { label: t.amount, x: MARGIN + 323, width: 90, align: 'right' as const },
    { label: t.balance, x: MARGIN + 417, width: width - 417, align: 'right' as const },
  ];
  const bottom = A4.height - MARGIN;
  let page = 0;
  let y = 0;

  const columnHeads = () => {
    doc.font('bold').fontSize(8).fillColor(MUTED);
    for (const column of columns)
      doc.text(column.label, column.x, y, { width: column.width, align: column.align, lineBreak: false });
    y += ROW;
    doc
      .moveTo(MARGIN, y - 4)
      .lineTo(A4.width - MARGIN, y - 4)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
  };
  const newPage = () => {
    forgetLaidOutWords(doc);
    doc.addPage();
    page += 1;
    y = pageHeader(doc, operator, t.statementTitle, `${t.page} ${page}`);
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(INK)
      .text(
        `${t.account}: ${head.accountId} (${head.currency}) · ${t.period}: ${printedDate(head.dateFrom, language)} — ${printedDate(head.dateTo, language)}`,
        MARGIN,
        y,
        { width },
      );
    y = doc.y + 8;
  };
  const summary = (rows: [string, string][]) => {
    for (const [label, value] of rows) {
      if (y + ROW > bottom) newPage();
      doc
        .font('regular')
        .fontSize(10)
        .fillColor(MUTED)
        .text(label, MARGIN, y, { width: 200, lineBreak: false });
      doc
        .font('bold')
        .fontSize(10)
        .fillColor(INK)
        .text(value, MARGIN + 200, y, {
          width: width - 200,
          align: 'right',
          lineBreak: false,
        });
      y += ROW + 2;
    }
  };

  const write = async () => {
    newPage();
    summary([
      [t.opening, money(head.opening)],
      [t.moneyIn, money(head.moneyIn)],
      [t.moneyOut, money(-head.moneyOut)],
      [t.closing, money(head.closing)],
    ]);
    y += 8;
    columnHeads();
    let count = 0;
    for await (const line of lines) {
      if (y + ROW > bottom) {
        newPage();
        columnHeads();
      }
      const cells = [
        printedTime(line.createdAt, language),
        describeEntry(line.kind, line.amount, line.description, language),
        money(line.amount),
        money(line.balanceAfter),
      ];
      doc.font('regular').fontSize(8).fillColor(INK);
      // One layout per cell: a left cell is cut to what its column holds, a right one placed by its width.
      columns.forEach((column, index) => {
        const text = fitted(doc, cells[index]!, column.width);
        const x = column.align === 'right' ? column.x + column.width - doc.widthOfString(text) : column.x;
        doc.text(text, x, y, { lineBreak: false });
      });
      y += ROW;
      count += 1;
      if (count % 200 === 0) await drained(doc);
    }
    if (count === 0) {
      doc.font('regular').fontSize(9).fillColor(MUTED).text(t.none, MARGIN, y, { width });
      y = doc.y + 6;
    }
    y += 10;
    summary([
      [t.moneyIn, money(head.moneyIn)],
      [t.moneyOut, money(-head.moneyOut)],
      [t.closing, money(head.closing)],
    ]);
    if (y + 2 * ROW > bottom) newPage();
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(t.postedOnly, MARGIN, y + 4, { width });
    doc.end();
  };
  write().catch((error: unknown) => doc.destroy(error as Error));
  return doc;
}

/** A titled group of label and value rows; `items` separate the records of a list. */
export interface PdfSection {
  title: string;
  items: [label: string, value: string][][];
}

/**
 * A document of titled sections of label and value rows, pages added as it grows (one's own data,
 * docs/decisions/account.md#a-persons-account); every page repeats the operator and the title.
 */
export async function sectionsPdf(
  title: string,
  subtitle: string,
  sections: PdfSection[],
  operator: Operator,
  language: Language,
  pageWord: string,
  emptyWord: string,
): Promise<Buffer> {
  const doc = newDocument(title, language);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const width = A4.width - 2 * MARGIN;
  const bottom = A4.height - MARGIN - 30;
  let page = 0;
  let y = 0;
  const newPage = () => {
    page += 1;
    doc.addPage();
    y = pageHeader(doc, operator, title, `${pageWord} ${page}`);
  };
  newPage();
  doc.font('regular').fontSize(9).fillColor(MUTED).text(subtitle, MARGIN, y, { width });
  y = doc.y + 10;
  for (const section of sections) {
    if (y > bottom - 60) newPage();
    doc.font('bold').fontSize(12).fillColor(ACCENT).text(section.title, MARGIN, y, { width });
    y = doc.y + 6;
    if (section.items.length === 0) {
      doc.font('regular').fontSize(9).fillColor(MUTED).text(emptyWord, MARGIN, y, { width });
      y = doc.y + 10;
    }
    for (const item of section.items) {
      for (const [label, value] of item) {
        if (y > bottom) newPage();
        y = fieldRow(doc, label, value, y, width);
      }
      y += 6;
    }
    y += 8;
    forgetLaidOutWords(doc);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
