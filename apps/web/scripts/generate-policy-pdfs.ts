/**
 * Writes the policy PDFs of brands with a policy block (apps/web/brands/<brand>.json) to
 * apps/web/public: `node apps/web/scripts/generate-policy-pdfs.ts [font.ttf]`.
 *
 * Set with PDFKit (the server's receipts use it too) in an embedded TrueType font, since the 14
 * standard PDF fonts have no Cyrillic; PDFKit subsets the font to the glyphs used and adds the
 * ToUnicode map, so the text can be searched and copied. The generated files are committed; run
 * again after changing a text.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { BrandConfig, LocalText, PolicyDocument } from '../brands/brand.ts';
import { loadBrand } from '../brands/brand.ts';

const FONT = process.argv[2] ?? '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';
const PUBLIC = new URL('../public/', import.meta.url);
const MARGIN = 64;

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

// ---------- documents of every brand with a policy block ----------

function renderPdf(brand: BrandConfig, document: PolicyDocument, language: Language): Promise<Buffer> {
  const policy = brand.policy!;
  const company = policy.company.name[language];
  const body = BODIES[document.id]?.[language];
  if (!body) throw new Error(`No text for ${document.id} (${language}) in generate-policy-pdfs.ts`);
  // A fixed date keeps a file the same from run to run while its text is.
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: document.title[language], CreationDate: new Date(Date.UTC(2026, 0, 1)) },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => pdf.on('end', () => resolve(Buffer.concat(chunks))));
  pdf.registerFont('text', FONT);
  pdf.font('text').fontSize(22).text(document.title[language]);
  pdf.moveDown(0.3).fontSize(11);
  pdf.text(`${company}, ${policy.company.registrationLabel[language]} ${policy.company.registrationNumber}`);
  const regions = policy.restrictedRegions.map((region) => region[language]).join(', ');
  const paragraphs = [
    ...body.map((paragraph) =>
      paragraph.replaceAll('{company}', company).replaceAll('{number}', policy.company.registrationNumber),
    ),
    language === 'ru' ? `Ограничения: ${regions}.` : `Restrictions: ${regions}.`,
  ];
  for (const paragraph of paragraphs) pdf.moveDown(0.8).text(paragraph, { lineGap: 3 });
  pdf.end();
  return done;
}

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
      const pdf = await renderPdf(brand, document, language);
      writeFileSync(target, pdf);
      console.info(`${target.pathname.replace(PUBLIC.pathname, 'public/')}: ${pdf.length} bytes`);
    }
  }
  loadBrand(name); // every file the configuration names now exists
}
