/** `npm run ops -- <command>`: opens the configured database like the server does and runs one command. */
import { ConfigError, loadConfig } from '../config.ts';
import { createContext } from '../create-context.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { runOps } from './cli.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
// Commands build no server, so no background worker starts (it runs with a server's onReady).
let ctx: Awaited<ReturnType<typeof createContext>>;
try {
  ctx = await createContext(config);
} catch (error) {
  // A running server holds the embedded database: one clear line, nothing written.
  if (error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
let code = 1;
try {
  code = await runOps(process.argv.slice(2), { ctx, print: (line) => console.info(line) });
} finally {
  await ctx.stop();
}
process.exit(code);
