/**
 * One process at a time on an embedded database
 * (docs/decisions/back-office.md#the-back-office-on-the-apps-stack). PGlite does not guard its data folder: a
 * second process (a second server, `npm run ops`) opening it beside a running server wrote over the server's
 * pages and broke it. Whoever opens the folder holds `<folder>.lock` (created exclusively, holding the
 * owner's pid); another process is refused while that pid lives. A lock left by a process that died is taken
 * over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';

export class DataDirInUseError extends Error {
  readonly dataDir: string;
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database ${dataDir} is in use by a running server (pid ${pid}): stop it first, or use the back office or a PostgreSQL DATABASE_URL`,
    );
    this.name = 'DataDirInUseError';
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder's lock or throws DataDirInUseError; answers the release (idempotent). */
export function lockDataDir(dataDir: string): () => void {
  const path = `${resolve(dataDir)}.lock`;
  const mine = `${process.pid} ${hostname()}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, mine);
      closeSync(fd);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        process.off('exit', release);
        try {
          if (readFileSync(path, 'utf8') === mine) unlinkSync(path);
        } catch {}
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner = Number.NaN;
    try {
      const [pid = '', host = ''] = readFileSync(path, 'utf8').trim().split(' ');
      owner = host === hostname() ? Number(pid) : Number.NaN;
      // Another machine's lock on a shared folder cannot be checked: it is kept.
      if (host !== hostname()) throw new DataDirInUseError(dataDir, Number(pid));
    } catch (error) {
      if (error instanceof DataDirInUseError) throw error;
      // Gone between the two calls: try again.
      continue;
    }
    if (Number.isInteger(owner) && owner > 0 && alive(owner)) throw new DataDirInUseError(dataDir, owner);
    // Its owner died without releasing it.
    try {
      unlinkSync(path);
    } catch {}
  }
  throw new DataDirInUseError(dataDir, 0);
}
