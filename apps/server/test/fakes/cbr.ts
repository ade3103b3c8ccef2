/**
 * A local fake of the Bank of Russia's daily rates file (GET /scripts/XML_daily.asp): the XML the
 * real one serves, in Windows-1251, with the day's rates a test sets; it can fail on request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRate {
  code: string;
  nominal: number;
  /** Roubles for `nominal` units, as the file writes it: a decimal comma ("78,5012"). */
  value: string;
  name: string;
}

export const CBR_DAY: FakeRate[] = [
  { code: 'AUD', nominal: 1, value: '51,0101', name: 'Австралийский доллар' },
  { code: 'USD', nominal: 1, value: '78,5012', name: 'Доллар США' },
  { code: 'EUR', nominal: 1, value: '90,7500', name: 'Евро' },
  { code: 'IDR', nominal: 10000, value: '47,2311', name: 'Рупий' },
  { code: 'JPY', nominal: 100, value: '50,1234', name: 'Иен' },
  { code: 'GBP', nominal: 1, value: '103,3300', name: 'Фунт стерлингов Соединенного королевства' },
];

export interface FakeCbr {
  url: string;
  requests: number;
  setDay(date: string, rates: FakeRate[]): void;
  /** The next n requests answer 500. */
  failNext(n: number): void;
  close(): Promise<void>;
}

/** Windows-1251 bytes of a text of ASCII and Russian letters (all the file holds). */
function cp1251(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else if (code >= 0x410 && code <= 0x44f) bytes.push(code - 0x410 + 0xc0);
    else if (code === 0x401) bytes.push(0xa8);
    else if (code === 0x451) bytes.push(0xb8);
    else bytes.push(0x3f);
  }
  return Buffer.from(bytes);
}

function dailyFile(date: string, rates: FakeRate[]): string {
  const valutes = rates
    .map(
      (rate, index) =>
        `<Valute ID="R0${1000 + index}"><NumCode>${100 + index}</NumCode><CharCode>${rate.code}</CharCode>` +
        `<Nominal>${rate.nominal}</Nominal><Name>${rate.name}</Name><Value>${rate.value}</Value>` +
        `<VunitRate>${rate.value}</VunitRate></Valute>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="${date}" name="Foreign Currency Market">${valutes}</ValCurs>`;
}

export async function startFakeCbr(): Promise<FakeCbr> {
  let day = { date: '25.11.2026', rates: CBR_DAY };
  let failing = 0;
  const fake = {
    url: '',
    requests: 0,
    setDay(date: string, rates: FakeRate[]) {
      day = { date, rates };
    },
    failNext(n: number) {
      failing = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    fake.requests += 1;
    if (failing > 0) {
      failing -= 1;
      res.writeHead(500).end('error');
      return;
    }
    if (!req.url?.startsWith('/scripts/XML_daily.asp')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml; charset=windows-1251' });
    res.end(cp1251(dailyFile(day.date, day.rates)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scripts/XML_daily.asp`;
  return fake;
}
