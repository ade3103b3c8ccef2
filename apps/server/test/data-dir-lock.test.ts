/**
 * One process at a time on an embedded database
 * (docs/decisions/back-office.md#the-back-office-on-the-apps-stack): a second opening of a data folder in use
 * is refused before PGlite touches it, and `npm run ops` says so in one line and changes nothing; a lock left
 * by a dead process is taken over. Embedded only, whatever TEST_DB says.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/client.ts';
import { DataDirInUseError } from '../src/db/data-dir-lock.ts';
import { migrate } from '../src/db/migrate.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the embedded database’s folder', () => {
  const base = mkdtempSync(join(tmpdir(), 'ewallet-lock-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('is refused to a second opener while the first holds it, and free again once closed', async () => {
    const dir = join(base, 'one');
    const db = await openPglite(dir);
    await expect(openPglite(dir)).rejects.toThrow(DataDirInUseError);
    expect(readFileSync(`${dir}.lock`, 'utf8')).toContain(String(process.pid));
    await db.close();
    const again = await openPglite(dir);
    await again.close();
  }, 120_000);

  it('is taken over from a process that died without releasing it', async () => {
    const dir = join(base, 'dead');
    // A pid no process has (above the kernel's maximum).
    writeFileSync(`${dir}.lock`, `4194400 ${(await import('node:os')).hostname()}\n`);
    const db = await openPglite(dir);
    await db.close();
  });

  it('makes `npm run ops` refuse in one line, writing nothing, while a server holds it', async () => {
    const dir = join(base, 'served');
    const db = await openPglite(dir);
    await migrate(db);
    const run = spawnSync(
      process.execPath,
      ['apps/server/src/ops/main.ts', 'create-operator', '--email', 'late@ops.example', '--role', 'admin'],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^The embedded database .* is in use by a running server \(pid \d+\)/),
    ]);
    // The holder goes on as before.
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM operators');
    expect(rows[0]!.n).toBe(0);
    await db.close();
  });
});
