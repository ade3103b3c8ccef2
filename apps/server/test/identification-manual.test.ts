/**
 * Identification by operator review (KYC_PROVIDER=manual): the app's form sends the documents, the
 * verification waits in_review for an operator, and the ops command decides it. The document
 * number is kept only sealed (AES-256-GCM under DOCUMENTS_KEY) and masked.
 */

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../src/ops/cli.ts';
import { registeredUser } from './auth-helpers.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';

const UPGRADE = '/v2/wallet/identification-level/upgrade';
const STATUS = '/v2/wallet/identification-level/status';
const DOCUMENTS = '/v2/wallet/identification-level/documents';
const PHOTO = '/v2/wallet/identification-level/documents/photo';
const SNILS = {
  document_type: 'snils',
  document_number: '112-233-445 95',
  full_name: 'Петров Иван Сергеевич',
  birth_date: '1990-05-17',
};

describe(`manual identification (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { KYC_PROVIDER: 'manual', DOCUMENTS_KEY: 'a-documents-key-of-at-least-32-chars-0001' },
    });
  });
  afterAll(() => server.close());

  const ops = async (...argv: string[]) => {
    const out: string[] = [];
    const code = await runOps(argv, { ctx: server.ctx, print: (line) => out.push(line) });
    return { code, out: out.join('\n') };
  };

  it('waits for the documents, then for an operator; the approve command raises the level', async () => {
    const { token } = await registeredUser(server);
    const started = await server.call('POST', UPGRADE, { token });
    expect(started.status).toBe(200);
    const url: string = started.body.verification_url;
    expect(url).toMatch(/^\/settings\?documents=[0-9a-f-]{36}$/);
    const applicationId = url.split('=').at(-1)!;
    expect(started.body.active_identification.status).toBe('pending');

    // Bad documents: a 400 naming the field, nothing stored.
    const bad = await server.call('POST', DOCUMENTS, {
      token,
      body: { ...SNILS, application_id: applicationId, document_number: '112-233-445 96' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      status: 'error',
      code: 'FIELD_INVALID',
      message: 'Проверьте поле «Номер документа»',
    });

    const sent = await server.call('POST', DOCUMENTS, {
      token,
      body: { ...SNILS, application_id: applicationId },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.active_identification.status).toBe('in_review');
    // A second time: the application no longer waits for documents.
    const twice = await server.call('POST', DOCUMENTS, {
      token,
      body: { ...SNILS, application_id: applicationId },
    });
    expect(twice.body.code).toBe('VERIFICATION_NOT_FOUND');

    // Stored sealed and masked: the number appears nowhere in the clear.
    const { rows } = await server.ctx.db.query<Record<string, unknown>>(
      'SELECT * FROM manual_kyc_applications WHERE id = $1',
      [applicationId],
    );
    expect(rows[0]!.document_number_masked).toBe('*******4595');
    expect(JSON.stringify(rows[0], (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      '11223344595',
    );
    expect(Buffer.from(rows[0]!.document_number_sealed as Buffer).includes(Buffer.from('11223344595'))).toBe(
      false,
    );

    const listed = await ops('identification-list');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(applicationId);
    expect(listed.out).toContain('*******4595');
    expect(listed.out).not.toContain('11223344595');
    expect((await ops('identification-show', applicationId)).out).toContain('11223344595');

    // Still waiting after the sandbox's one-hour pending limit: review has no such limit.
    server.clock.advance(3 * 3600_000);
    expect((await server.call('POST', STATUS, { token })).body.active_identification.status).toBe(
      'in_review',
    );

    expect((await ops('identification-approve', applicationId, '--operator', 'anna')).code).toBe(0);
    const status = await server.call('POST', STATUS, { token });
    expect(status.body.identification_level.name).toBe('simplified');
    expect(status.body.active_identification.status).toBe('complete');
    // Decided once: a second decision is refused.
    expect((await ops('identification-reject', applicationId, '--reason', 'late')).code).toBe(1);
  });

  it('the reject command needs a reason, and the person reads it', async () => {
    const { token } = await registeredUser(server);
    const started = await server.call('POST', UPGRADE, { token });
    const applicationId = started.body.verification_url.split('=').at(-1);
    await server.call('POST', DOCUMENTS, { token, body: { ...SNILS, application_id: applicationId } });
    expect((await ops('identification-reject', applicationId)).code).toBe(2);
    expect((await ops('identification-reject', applicationId, '--reason', 'Фото нечитаемо')).code).toBe(0);
    const status = await server.call('POST', STATUS, { token });
    expect(status.body.active_identification).toMatchObject({ status: 'aborted', reason: 'Фото нечитаемо' });
    expect(status.body.identification_level.name).toBe('anonymous');
  });

  it("refuses another person's application exactly as a missing one", async () => {
    const owner = await registeredUser(server);
    const other = await registeredUser(server);
    const started = await server.call('POST', UPGRADE, { token: owner.token });
    const applicationId = started.body.verification_url.split('=').at(-1);
    await server.call('POST', UPGRADE, { token: other.token });
    const foreign = await server.call('POST', DOCUMENTS, {
      token: other.token,
      body: { ...SNILS, application_id: applicationId },
    });
    const missing = await server.call('POST', DOCUMENTS, {
      token: other.token,
      body: { ...SNILS, application_id: '5f0c6f39-8d4e-4c43-9a3e-6f1f9d0e2a11' },
    });
    expect([foreign.status, foreign.body]).toEqual([missing.status, missing.body]);
    expect(foreign.body.code).toBe('VERIFICATION_NOT_FOUND');
  });

  it('takes up to 3 photos of the document, sealed at rest, and gives them to the operator', async () => {
    const owner = await registeredUser(server);
    const other = await registeredUser(server);
    const started = await server.call('POST', UPGRADE, { token: owner.token });
    const applicationId: string = started.body.verification_url.split('=').at(-1);
    // A real JPEG carrying a recognisable text in its metadata (as a camera's EXIF would).
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'PASSPORT-PAGE-SECRET' } })
      .toBuffer();
    expect(jpeg.includes(Buffer.from('PASSPORT-PAGE-SECRET'))).toBe(true);
    const photo = (body: Record<string, unknown> = {}, token = owner.token) =>
      server.call('POST', PHOTO, {
        token,
        body: {
          application_id: applicationId,
          content_type: 'image/jpeg',
          data: jpeg.toString('base64'),
          ...body,
        },
      });

    expect((await photo()).body).toEqual({ status: 'success', message: 'Фотография добавлена', photos: 1 });
    // Bytes that are not the declared image, and someone else's application: refused, nothing kept.
    const notPng = await photo({ content_type: 'image/png' });
    expect([notPng.status, notPng.body.code, notPng.body.message]).toEqual([
      400,
      'FIELD_INVALID',
      'Проверьте поле «Фотография»',
    ]);
    expect((await photo({ data: 'not base64!' })).body.code).toBe('FIELD_INVALID');
    // Trusted by no first bytes: a JPEG's header followed by HTML, and a JPEG cut short, are refused.
    const polyglot = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from('<html><script>1</script>'),
    ]);
    expect((await photo({ data: polyglot.toString('base64') })).body.code).toBe('FIELD_INVALID');
    const cut = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    expect((await photo({ data: cut.toString('base64') })).body.code).toBe('FIELD_INVALID');
    expect((await photo({}, other.token)).body.code).toBe('VERIFICATION_NOT_FOUND');
    // Three at most, even sent at once.
    const burst = await Promise.all([photo(), photo(), photo()]);
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 409]);
    expect(burst.find((r) => r.status === 409)!.body.code).toBe('PHOTOS_LIMIT');

    // A body over the photo's limit is a 413 in the contract's shape.
    const huge = await photo({ data: 'A'.repeat(4_400_000) });
    expect([huge.status, huge.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);

    const { rows } = await server.ctx.db.query<{ sealed: Buffer }>(
      'SELECT sealed FROM manual_kyc_photos WHERE application_id = $1',
      [applicationId],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows)
      expect(Buffer.from(row.sealed).includes(Buffer.from('PASSPORT-PAGE-SECRET'))).toBe(false);

    const out = await mkdtemp(join(tmpdir(), 'kyc-photos-'));
    try {
      const written = await ops('identification-photos', applicationId, '--out', out);
      expect(written.code).toBe(0);
      const files = await readdir(out);
      expect(files).toHaveLength(3);
      // What is kept is the server's own drawing: a JPEG of the same picture, without the metadata.
      const kept = await readFile(join(out, files[0]!));
      expect(kept.equals(jpeg)).toBe(false);
      expect(kept.includes(Buffer.from('PASSPORT-PAGE-SECRET'))).toBe(false);
      const meta = await sharp(kept).metadata();
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 40, 30, undefined]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }

    // Once the data is sent the application is in review: no more photos.
    await server.call('POST', DOCUMENTS, {
      token: owner.token,
      body: { ...SNILS, application_id: applicationId },
    });
    expect((await photo()).body.code).toBe('VERIFICATION_NOT_FOUND');
  });

  it('ops prints its commands, and refuses unknown ones', async () => {
    expect((await ops()).out).toContain('identification-approve');
    expect((await ops('nothing')).code).toBe(2);
    expect((await ops('identification-approve', 'not-an-id')).code).toBe(1);
  });
});
