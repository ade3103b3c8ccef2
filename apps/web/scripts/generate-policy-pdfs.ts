/**
 * Writes the policy PDFs of brands with a policy block (apps/web/brands/<brand>.json) to
 * apps/web/public: `node apps/web/scripts/generate-policy-pdfs.ts [font.ttf]`.
 *
 * A PDF is text objects plus a cross-reference table, so no library is needed; what needs care
 * is Cyrillic: the 14 standard PDF fonts have no Cyrillic glyphs, so the texts are set in an
 * embedded TrueType font (Liberation Sans, SIL Open Font License). To keep each file small the
 * font is cut down to the glyphs the document uses (same glyph ids, other glyphs emptied, hinting
 * dropped), referenced as a CID font with Identity-H, and carries a ToUnicode map so the text can
 * be searched and copied. The generated files are committed; run again after changing a text.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { BrandConfig, LocalText, PolicyDocument } from '../brands/brand.ts';
import { loadBrand } from '../brands/brand.ts';

const FONT = process.argv[2] ?? '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';
const PUBLIC = new URL('../public/', import.meta.url);

// ---------- the documents' texts ----------

type Language = keyof LocalText;

/** Body paragraphs of each document; `{company}` and `{number}` come from the brand. */
const BODIES: Record<string, Record<Language, string[]>> = {
  'aml-kyc-policy': {
    ru: [
      '{company} (регистрационный номер {number}) предотвращает использование кошелька для легализации доходов, полученных преступным путём, и финансирования терроризма.',
      'Мы идентифицируем клиентов по уровням: анонимный, упрощённый и полный. Лимиты остатка и операций зависят от уровня; для перехода на следующий уровень клиент проходит проверку документов у партнёра по верификации.',
      'Мы проверяем клиентов и получателей по санкционным спискам, отслеживаем необычные операции и вправе запросить сведения об источнике средств, приостановить операцию или отказать в ней.',
      'Услуги не предоставляются лицам из регионов, перечисленных в блоке «Ограничения» приложения.',
      'Сведения, собранные при идентификации, хранятся в течение срока, установленного законом, и передаются уполномоченным органам только в предусмотренных законом случаях.',
    ],
    en: [
      '{company} (registration number {number}) prevents the use of the wallet for laundering the proceeds of crime and for financing terrorism.',
      'Customers are identified in levels: anonymous, simplified and full. Balance and operation limits depend on the level; to reach the next level a customer passes a document check with our verification partner.',
      'We screen customers and recipients against sanctions lists, monitor unusual operations, and may ask for the source of funds, hold an operation or refuse it.',
      'The service is not provided to persons from the regions listed under Restrictions in the app.',
      'Information collected during identification is kept for the period required by law and disclosed to authorities only where the law requires it.',
    ],
  },
  'cookies-policy': {
    ru: [
      'Приложение {company} не использует рекламные и сторонние cookie и не подключает счётчики посещений.',
      'Для работы приложения в браузере хранятся: ключ сессии (чтобы вы оставались в системе), выбранный язык и файлы самого приложения для быстрого запуска и установки на экран телефона.',
      'Сведения о деньгах и личные данные не сохраняются в кэше браузера.',
      'Вы можете в любой момент удалить эти данные в настройках браузера; после этого потребуется войти снова.',
    ],
    en: [
      'The {company} app uses no advertising or third-party cookies and no visitor counters.',
      "To work, the app keeps in your browser: the session key (so you stay signed in), your chosen language, and the app's own files for a fast start and installation on your phone's home screen.",
      "Information about money and personal data is not kept in the browser's cache.",
      "You can delete this data at any time in your browser's settings; you will then need to sign in again.",
    ],
  },
  'privacy-policy': {
    ru: [
      '{company} (регистрационный номер {number}) обрабатывает персональные данные клиентов кошелька: имя, фамилию, телефон, e-mail, сведения документов при идентификации и историю операций.',
      'Данные нужны, чтобы открыть и вести кошелёк, выполнять операции, соблюдать требования закона о противодействии отмыванию денег и защищать клиентов от мошенничества.',
      'Данные передаются только партнёрам, без которых услуга невозможна (SMS, приём платежей, выплаты, верификация), и органам власти в случаях, предусмотренных законом.',
      'Коды из SMS, PIN-коды и номера карт не хранятся в открытом виде. Вы можете запросить сведения о своих данных, их исправление или удаление, если закон не требует их хранить.',
    ],
    en: [
      '{company} (registration number {number}) processes the personal data of wallet customers: first and last name, phone, e-mail, document details from identification, and the history of operations.',
      'The data is needed to open and run the wallet, carry out operations, meet anti-money-laundering law and protect customers from fraud.',
      'Data is shared only with partners without whom the service is impossible (SMS, payments, payouts, verification) and with authorities where the law requires it.',
      'SMS codes, PINs and card numbers are never stored in the clear. You may ask what data we hold about you, have it corrected, or deleted where the law does not require us to keep it.',
    ],
  },
  'terms-of-use': {
    ru: [
      'Кошелёк {company} (регистрационный номер {number}) позволяет пополнять баланс картой, выводить средства на карту, переводить деньги другим пользователям по номеру телефона и оплачивать покупки по QR-коду.',
      'Вход выполняется по коду из SMS, операции подтверждаются PIN-кодом. Не сообщайте коды и PIN-код никому, в том числе сотрудникам компании.',
      'Лимиты операций зависят от уровня идентификации. Мы вправе приостановить операцию для проверки и отказать в обслуживании в случаях, предусмотренных законом и политикой AML и KYC.',
      'Услуги не предоставляются резидентам регионов, перечисленных в блоке «Ограничения» приложения.',
    ],
    en: [
      'The {company} wallet (registration number {number}) lets you top up your balance by card, withdraw to a card, send money to other users by phone number and pay for purchases by QR code.',
      'You sign in with a code sent by SMS and confirm operations with your PIN. Never tell your codes or PIN to anyone, company staff included.',
      'Operation limits depend on your identification level. We may hold an operation for review and refuse service where the law or the AML & KYC policy requires it.',
      'The service is not provided to residents of the regions listed under Restrictions in the app.',
    ],
  },
};

// ---------- TrueType: read, measure, subset ----------

interface Table {
  tag: string;
  data: Buffer;
}

class TrueTypeFont {
  readonly tables = new Map<string, Buffer>();
  readonly unitsPerEm: number;
  readonly numGlyphs: number;
  readonly ascent: number;
  readonly descent: number;
  readonly bbox: number[];
  private readonly advances: number[] = [];
  private readonly unicodeToGlyph = new Map<number, number>();

  constructor(file: Buffer) {
    const count = file.readUInt16BE(4);
    for (let i = 0; i < count; i++) {
      const entry = 12 + i * 16;
      const tag = file.toString('latin1', entry, entry + 4);
      const offset = file.readUInt32BE(entry + 8);
      const length = file.readUInt32BE(entry + 12);
      this.tables.set(tag, file.subarray(offset, offset + length));
    }
    const head = this.table('head');
    this.unitsPerEm = head.readUInt16BE(18);
    this.bbox = [36, 38, 40, 42].map((at) => Math.round((head.readInt16BE(at) * 1000) / this.unitsPerEm));
    const hhea = this.table('hhea');
    this.ascent = Math.round((hhea.readInt16BE(4) * 1000) / this.unitsPerEm);
    this.descent = Math.round((hhea.readInt16BE(6) * 1000) / this.unitsPerEm);
    this.numGlyphs = this.table('maxp').readUInt16BE(4);
    const metrics = hhea.readUInt16BE(34);
    const hmtx = this.table('hmtx');
    for (let glyph = 0; glyph < this.numGlyphs; glyph++) {
      this.advances.push(hmtx.readUInt16BE(Math.min(glyph, metrics - 1) * 4));
    }
    this.readCmap();
  }

  table(tag: string): Buffer {
    const table = this.tables.get(tag);
    if (!table) throw new Error(`The font has no ${tag} table`);
    return table;
  }

  /** The Windows Unicode BMP subtable (platform 3, encoding 1, format 4). */
  private readCmap(): void {
    const cmap = this.table('cmap');
    const subtables = cmap.readUInt16BE(2);
    for (let i = 0; i < subtables; i++) {
      const platform = cmap.readUInt16BE(4 + i * 8);
      const encoding = cmap.readUInt16BE(6 + i * 8);
      const offset = cmap.readUInt32BE(8 + i * 8);
      if (platform !== 3 || encoding !== 1 || cmap.readUInt16BE(offset) !== 4) continue;
      const segments = cmap.readUInt16BE(offset + 6) / 2;
      const ends = offset + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const rangeOffsets = deltas + segments * 2;
      for (let s = 0; s < segments; s++) {
        const end = cmap.readUInt16BE(ends + s * 2);
        const start = cmap.readUInt16BE(starts + s * 2);
        const delta = cmap.readInt16BE(deltas + s * 2);
        const rangeOffset = cmap.readUInt16BE(rangeOffsets + s * 2);
        for (let code = start; code <= end && code !== 0xffff; code++) {
          let glyph: number;
          if (rangeOffset === 0) glyph = (code + delta) & 0xffff;
          else {
            const at = rangeOffsets + s * 2 + rangeOffset + (code - start) * 2;
            glyph = cmap.readUInt16BE(at);
            if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
          }
          if (glyph !== 0) this.unicodeToGlyph.set(code, glyph);
        }
      }
      return;
    }
    throw new Error('The font has no Unicode cmap');
  }

  glyphOf(char: string): number {
    const glyph = this.unicodeToGlyph.get(char.codePointAt(0)!);
    if (glyph === undefined) throw new Error(`The font has no glyph for "${char}"`);
    return glyph;
  }

  /** Advance width in thousandths of the font size. */
  width(glyph: number): number {
    return Math.round((this.advances[glyph]! * 1000) / this.unitsPerEm);
  }

  private glyphData(glyph: number): Buffer {
    const head = this.table('head');
    const loca = this.table('loca');
    const long = head.readInt16BE(50) === 1;
    const at = (index: number) => (long ? loca.readUInt32BE(index * 4) : loca.readUInt16BE(index * 2) * 2);
    return this.table('glyf').subarray(at(glyph), at(glyph + 1));
  }

  /** A glyph without its hinting instructions (the hinting tables are dropped from the subset). */
  private strippedGlyph(glyph: number, components: Set<number>): Buffer {
    const data = this.glyphData(glyph);
    if (data.length === 0) return data;
    const contours = data.readInt16BE(0);
    if (contours >= 0) {
      const afterEnds = 10 + contours * 2;
      const instructions = data.readUInt16BE(afterEnds);
      const out = Buffer.concat([
        data.subarray(0, afterEnds),
        Buffer.from([0, 0]),
        data.subarray(afterEnds + 2 + instructions),
      ]);
      return out;
    }
    // A composite glyph: note its components, clear WE_HAVE_INSTRUCTIONS and cut the instructions.
    const out = Buffer.from(data);
    let at = 10;
    for (;;) {
      const flags = out.readUInt16BE(at);
      components.add(out.readUInt16BE(at + 2));
      out.writeUInt16BE(flags & ~0x0100, at);
      at += 4 + (flags & 0x0001 ? 4 : 2);
      if (flags & 0x0008) at += 2;
      else if (flags & 0x0040) at += 4;
      else if (flags & 0x0080) at += 8;
      if (!(flags & 0x0020)) return out.subarray(0, at);
    }
  }

  /** The font with only `used` glyphs drawn (ids unchanged), as a TrueType file. */
  subset(used: Set<number>): Buffer {
    const keep = new Set([0, ...used]);
    const glyphs = new Map<number, Buffer>();
    const pending = [...keep];
    while (pending.length > 0) {
      const glyph = pending.pop()!;
      if (glyphs.has(glyph)) continue;
      const components = new Set<number>();
      glyphs.set(glyph, this.strippedGlyph(glyph, components));
      for (const component of components) if (!glyphs.has(component)) pending.push(component);
    }
    const loca = Buffer.alloc((this.numGlyphs + 1) * 4);
    const parts: Buffer[] = [];
    let offset = 0;
    for (let glyph = 0; glyph < this.numGlyphs; glyph++) {
      loca.writeUInt32BE(offset, glyph * 4);
      const data = glyphs.get(glyph);
      if (!data) continue;
      const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
      parts.push(padded);
      offset += padded.length;
    }
    loca.writeUInt32BE(offset, this.numGlyphs * 4);
    const head = Buffer.from(this.table('head'));
    head.writeUInt32BE(0, 8); // checkSumAdjustment: recomputed below
    head.writeInt16BE(1, 50); // long loca offsets
    const maxp = Buffer.from(this.table('maxp'));
    if (maxp.length >= 32) {
      maxp.writeUInt16BE(0, 18); // maxFunctionDefs
      maxp.writeUInt16BE(0, 26); // maxSizeOfInstructions
    }
    // post format 3: no glyph names (a PDF CID font addresses glyphs by id).
    const post = Buffer.from(this.table('post').subarray(0, 32));
    post.writeUInt32BE(0x00030000, 0);
    const tables: Table[] = [
      { tag: 'OS/2', data: this.table('OS/2') },
      { tag: 'cmap', data: this.table('cmap') },
      { tag: 'glyf', data: Buffer.concat(parts) },
      { tag: 'head', data: head },
      { tag: 'hhea', data: this.table('hhea') },
      { tag: 'hmtx', data: this.table('hmtx') },
      { tag: 'loca', data: loca },
      { tag: 'maxp', data: maxp },
      { tag: 'name', data: this.table('name') },
      { tag: 'post', data: post },
    ];
    return writeFont(tables);
  }
}

function checksum(data: Buffer): number {
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + padded.readUInt32BE(at)) >>> 0;
  return sum;
}

function writeFont(tables: Table[]): Buffer {
  const count = tables.length;
  const header = Buffer.alloc(12 + count * 16);
  const power = 2 ** Math.floor(Math.log2(count));
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const bodies: Buffer[] = [];
  let offset = header.length;
  let headAt = 0;
  tables.forEach((table, i) => {
    const entry = 12 + i * 16;
    header.write(table.tag, entry, 'latin1');
    header.writeUInt32BE(checksum(table.data), entry + 4);
    header.writeUInt32BE(offset, entry + 8);
    header.writeUInt32BE(table.data.length, entry + 12);
    if (table.tag === 'head') headAt = offset;
    const padded = Buffer.concat([table.data, Buffer.alloc((4 - (table.data.length % 4)) % 4)]);
    bodies.push(padded);
    offset += padded.length;
  });
  const font = Buffer.concat([header, ...bodies]);
  font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headAt + 8);
  return font;
}

// ---------- PDF ----------

interface Line {
  text: string;
  size: number;
  gapBefore: number;
}

const PAGE = { width: 595, height: 842, margin: 64 };

function wrap(font: TrueTypeFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const measure = (value: string) =>
    ([...value].reduce((sum, char) => sum + font.width(font.glyphOf(char)), 0) * size) / 1000;
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measure(candidate) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

function utf16Hex(text: string): string {
  return `<FEFF${[...text]
    .map((char) => {
      const code = char.codePointAt(0)!;
      if (code <= 0xffff) return code.toString(16).padStart(4, '0');
      const high = 0xd800 + ((code - 0x10000) >> 10);
      const low = 0xdc00 + ((code - 0x10000) & 0x3ff);
      return high.toString(16) + low.toString(16);
    })
    .join('')
    .toUpperCase()}>`;
}

function renderPdf(font: TrueTypeFont, title: string, lines: Line[]): Buffer {
  const used = new Set<number>();
  const toUnicode = new Map<number, number>();
  for (const line of lines) {
    for (const char of line.text) {
      const glyph = font.glyphOf(char);
      used.add(glyph);
      toUnicode.set(glyph, char.codePointAt(0)!);
    }
  }
  // Lay the lines out on as many pages as they need.
  const pages: string[] = [];
  let content = '';
  let y = PAGE.height - PAGE.margin;
  for (const line of lines) {
    const step = line.size * 1.35 + line.gapBefore;
    if (y - step < PAGE.margin && content) {
      pages.push(content);
      content = '';
      y = PAGE.height - PAGE.margin;
    }
    y -= step;
    const glyphs = [...line.text].map((char) => font.glyphOf(char).toString(16).padStart(4, '0')).join('');
    content += `BT /F1 ${line.size} Tf ${PAGE.margin} ${y.toFixed(2)} Td <${glyphs}> Tj ET\n`;
  }
  pages.push(content);

  const objects: Buffer[] = [];
  const add = (body: string | Buffer) => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const stream = (dictionary: string, data: Buffer) => {
    const packed = deflateSync(data, { level: 9 });
    return Buffer.concat([
      Buffer.from(`<< ${dictionary} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`, 'latin1'),
      packed,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  };

  const fontFile = font.subset(used);
  const sorted = [...used].sort((a, b) => a - b);
  const widths = sorted.map((glyph) => `${glyph} [${font.width(glyph)}]`).join(' ');
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    ...chunks(sorted, 100).flatMap((group) => [
      `${group.length} beginbfchar`,
      ...group.map(
        (glyph) =>
          `<${glyph.toString(16).padStart(4, '0')}> <${toUnicode.get(glyph)!.toString(16).padStart(4, '0')}>`,
      ),
      'endbfchar',
    ]),
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');

  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  add('PAGES'); // 2: filled in once the pages exist
  const fontFileRef = add(stream(`/Length1 ${fontFile.length}`, fontFile));
  const descriptor = add(
    `<< /Type /FontDescriptor /FontName /AAAAAA+LiberationSans /Flags 32 /FontBBox [${font.bbox.join(' ')}] ` +
      `/ItalicAngle 0 /Ascent ${font.ascent} /Descent ${font.descent} /CapHeight ${font.ascent} /StemV 80 /FontFile2 ${fontFileRef} 0 R >>`,
  );
  const cidFont = add(
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /AAAAAA+LiberationSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> ` +
      `/FontDescriptor ${descriptor} 0 R /CIDToGIDMap /Identity /DW 1000 /W [${widths}] >>`,
  );
  const unicodeMap = add(stream('', Buffer.from(cmap, 'latin1')));
  const type0 = add(
    `<< /Type /Font /Subtype /Type0 /BaseFont /AAAAAA+LiberationSans /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${unicodeMap} 0 R >>`,
  );
  const kids: number[] = [];
  for (const page of pages) {
    const contents = add(stream('', Buffer.from(page, 'latin1')));
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] ` +
          `/Resources << /Font << /F1 ${type0} 0 R >> >> /Contents ${contents} 0 R >>`,
      ),
    );
  }
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
  );
  const info = add(`<< /Title ${utf16Hex(title)} /Producer (E-Wallet generate-policy-pdfs) >>`);

  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---------- documents of every brand with a policy block ----------

function documentLines(
  font: TrueTypeFont,
  brand: BrandConfig,
  document: PolicyDocument,
  language: Language,
): Line[] {
  const policy = brand.policy!;
  const company = policy.company.name[language];
  const body = BODIES[document.id]?.[language];
  if (!body) throw new Error(`No text for ${document.id} (${language}) in generate-policy-pdfs.ts`);
  const width = PAGE.width - PAGE.margin * 2;
  const lines: Line[] = [];
  const push = (text: string, size: number, gap: number) =>
    wrap(font, text, size, width).forEach((part, i) => {
      lines.push({ text: part, size, gapBefore: i === 0 ? gap : 0 });
    });
  push(document.title[language], 22, 0);
  push(
    `${company}, ${policy.company.registrationLabel[language]} ${policy.company.registrationNumber}`,
    11,
    6,
  );
  for (const paragraph of body) {
    push(
      paragraph.replaceAll('{company}', company).replaceAll('{number}', policy.company.registrationNumber),
      11,
      12,
    );
  }
  const regions = policy.restrictedRegions.map((region) => region[language]).join(', ');
  push(language === 'ru' ? `Ограничения: ${regions}.` : `Restrictions: ${regions}.`, 11, 12);
  return lines;
}

const font = new TrueTypeFont(readFileSync(FONT));
const brands = readdirSync(new URL('../brands/', import.meta.url))
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.replace(/\.json$/, ''));
for (const name of brands) {
  const brand = JSON.parse(
    readFileSync(new URL(`../brands/${name}.json`, import.meta.url), 'utf8'),
  ) as BrandConfig;
  if (!brand.policy) continue;
  for (const document of brand.policy.documents) {
    for (const language of ['ru', 'en'] as const) {
      const target = new URL(document.href[language].replace(/^\//, ''), PUBLIC);
      mkdirSync(new URL('./', target), { recursive: true });
      const pdf = renderPdf(font, document.title[language], documentLines(font, brand, document, language));
      writeFileSync(target, pdf);
      console.info(`${target.pathname.replace(PUBLIC.pathname, 'public/')}: ${pdf.length} bytes`);
    }
  }
  loadBrand(name); // every file the configuration names now exists
}
