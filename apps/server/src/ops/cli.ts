/**
 * Operators' commands, run as `npm run ops -- <command> [arguments]` against the configured
 * database (the same environment as the server). A small dispatcher: each command is one entry of
 * COMMANDS, so later ones (the back office's create-operator) are added beside these.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OPERATOR_ROLES, type OperatorRole, OpsCreateOperatorRequest, Phone } from '@e-wallet/contract';
import type { AppContext } from '../context.ts';
import { clearCodeLock } from '../modules/auth/index.ts';
import { refreshLatest } from '../modules/identification/index.ts';
import type { OperatorReview } from '../providers/kyc/kyc-provider.ts';
import { createOperator } from './operators.ts';

export interface OpsIo {
  ctx: AppContext;
  print(line: string): void;
}

interface Command {
  usage: string;
  run(args: string[], flags: Record<string, string>, io: OpsIo): Promise<number>;
}

function manual(io: OpsIo): OperatorReview | null {
  const provider = io.ctx.kyc;
  if (provider.operatorReview) return provider.operatorReview;
  io.print(`KYC_PROVIDER is ${provider.id}: operators decide only with KYC_PROVIDER=manual`);
  return null;
}

async function decide(
  args: string[],
  flags: Record<string, string>,
  io: OpsIo,
  action: 'approve' | 'reject',
): Promise<number> {
  const provider = manual(io);
  const id = args[0];
  if (!provider) return 1;
  if (!id) {
    io.print(`usage: ${COMMANDS[`identification-${action}`]!.usage}`);
    return 2;
  }
  const reason = flags.reason?.trim();
  if (action === 'reject' && !reason) {
    io.print('identification-reject needs --reason "<why, as the person will read it>"');
    return 2;
  }
  const operator = flags.operator ?? process.env.USER ?? 'operator';
  const decided = await provider.decide(
    id,
    action === 'approve' ? { action } : { action, reason: reason! },
    operator,
  );
  if (!decided) {
    io.print(`${id}: no application in review with this id`);
    return 1;
  }
  // The wallet applies the decision at once (it would on the person's next status refresh anyway).
  await refreshLatest(io.ctx, decided.user_id);
  io.print(`${id}: ${decided.status} (verification ${decided.reference}, level ${decided.target_level})`);
  return 0;
}

const COMMANDS: Record<string, Command> = {
  'create-operator': {
    usage: `create-operator --email <e-mail> --role <${OPERATOR_ROLES.join('|')}>   (prints a one-time password and the TOTP secret to this terminal only)`,
    async run(_args, flags, io) {
      const parsed = OpsCreateOperatorRequest.safeParse({ email: flags.email, role: flags.role });
      if (!parsed.success) {
        io.print(`usage: ${COMMANDS['create-operator']!.usage}`);
        return 2;
      }
      try {
        const made = await createOperator(io.ctx, parsed.data as { email: string; role: OperatorRole });
        io.print(`operator: ${made.operator.email} (${made.operator.role})`);
        io.print(`password: ${made.password}`);
        io.print(`totp_secret: ${made.totpSecret}`);
        io.print(
          'The password works once: the first sign-in replaces it. Keep the TOTP secret in an authenticator app.',
        );
        return 0;
      } catch (error) {
        if ((error as { code?: string }).code === 'OPERATOR_EXISTS') {
          io.print(`${parsed.data.email}: an operator with this e-mail exists`);
          return 1;
        }
        throw error;
      }
    },
  },
  'identification-list': {
    usage: 'identification-list [--status in_review|pending|approved|rejected|canceled|all]',
    async run(_args, flags, io) {
      const provider = manual(io);
      if (!provider) return 1;
      const status = (flags.status ?? 'in_review') as Parameters<OperatorReview['list']>[0];
      const rows = await provider.list(status);
      if (rows.length === 0) io.print(`no applications (${status})`);
      for (const row of rows)
        io.print(
          [
            row.id,
            row.status,
            row.target_level,
            row.document_type ?? '-',
            row.document_number_masked ?? '-',
            row.full_name ?? '-',
            row.birth_date ?? '-',
            row.submitted_at?.toISOString() ?? '-',
          ].join('\t'),
        );
      return 0;
    },
  },
  'identification-show': {
    usage: 'identification-show <application id>   (prints the full document number)',
    async run(args, _flags, io) {
      const provider = manual(io);
      if (!provider || !args[0]) return provider ? 2 : 1;
      const row = await provider.application(args[0]);
      if (!row) {
        io.print(`${args[0]}: no such application`);
        return 1;
      }
      io.print(`${row.id}\t${row.status}\t${row.full_name ?? '-'}\t${row.birth_date ?? '-'}`);
      io.print(`${row.document_type ?? '-'}\t${(await provider.documentNumber(row.id)) ?? '-'}`);
      io.print(`photos: ${await provider.photoCount(row.id)}`);
      return 0;
    },
  },
  'identification-photos': {
    usage: 'identification-photos <application id> --out <folder>   (writes the opened photos there)',
    async run(args, flags, io) {
      const provider = manual(io);
      if (!provider) return 1;
      if (!args[0] || !flags.out) {
        io.print(`usage: ${COMMANDS['identification-photos']!.usage}`);
        return 2;
      }
      const photos = await provider.photos(args[0]);
      await mkdir(flags.out, { recursive: true, mode: 0o700 });
      for (const [n, photo] of photos.entries()) {
        const path = join(flags.out, `${args[0]}-${n + 1}.${photo.contentType.split('/')[1]}`);
        // Readable by the operator only: these are identity documents.
        await writeFile(path, photo.data, { mode: 0o600 });
        io.print(path);
      }
      if (photos.length === 0) io.print(`${args[0]}: no photos`);
      return 0;
    },
  },
  'identification-approve': {
    usage: 'identification-approve <application id> [--operator name]',
    run: (args, flags, io) => decide(args, flags, io, 'approve'),
  },
  'identification-reject': {
    usage: 'identification-reject <application id> --reason "<text>" [--operator name]',
    run: (args, flags, io) => decide(args, flags, io, 'reject'),
  },
  'codes-unlock': {
    usage: 'codes-unlock <phone, +7...>   (after the owner proved who they are)',
    async run(args, _flags, io) {
      const phone = args[0];
      if (!phone || !Phone.safeParse(phone).success) {
        io.print(`usage: ${COMMANDS['codes-unlock']!.usage}`);
        return 2;
      }
      const cleared = await clearCodeLock(io.ctx.db, phone, io.ctx.clock.now());
      io.print(`${phone}: ${cleared ? 'wrong codes forgotten, codes may be sent again' : 'was not locked'}`);
      return 0;
    },
  },
};

/** Splits `--name value` and `--name=value` flags from positional arguments. */
function parseArgs(argv: string[]): { args: string[]; flags: Record<string, string> } {
  const args: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      args.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (inline !== undefined) flags[name!] = inline;
    else flags[name!] = argv[++i] ?? '';
  }
  return { args, flags };
}

/** Runs one command; answers the process exit code (0 done, 1 refused, 2 usage). */
export async function runOps(argv: string[], io: OpsIo): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    io.print('usage: npm run ops -- <command>');
    for (const entry of Object.values(COMMANDS)) io.print(`  ${entry.usage}`);
    return name && name !== 'help' ? 2 : 0;
  }
  const { args, flags } = parseArgs(rest);
  return command.run(args, flags, io);
}
