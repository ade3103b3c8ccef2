/**
 * The trusted person ('вторая рука', docs/decisions/antifraud.md#antifraud-and-the-trusted-person). A person
 * names another wallet user by phone; once that person accepts, every outgoing operation from the threshold
 * (and a first payment to a new payee, if chosen) waits for their approval (assess.ts). What weakens the
 * protection (a removal, a raised threshold, the new-payee rule switched off) takes effect 48 hours after it
 * is asked, so a thief with the session cannot switch it off; what strengthens it is at once. Both people
 * are told of every change (a notification and an SMS).
 * A change is in force from `change_at` whether or not anything has written it yet: every read here and
 * in assess.ts reads it so; the holds' sweep job (modules/holds) writes the due ones and tells both.
 */
import { type AnswerOf, type BodyOut, formatAmount, type Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import { sendNotice } from '../auth/index.ts';
import { notify } from '../notifications/index.ts';
import { HOLD_HOURS } from './store.ts';
import { CHANGES, fill, LEFT_BECAUSE, SMS } from './texts.ts';
import { trustedPersonChanging } from './watch.ts';

/** How long a weakening change waits. */
export const TRUSTED_CHANGE_HOURS = 48;

interface TrustedRow {
  user_id: string;
  trusted_id: string;
  threshold: bigint;
  new_payees: boolean;
  status: 'pending' | 'active';
  change: 'remove' | 'raise' | null;
  change_at: Date | null;
  pending_threshold: bigint | null;
  pending_new_payees: boolean | null;
}

interface Person {
  id: string;
  phone: string;
  first_name: string;
  last_name: string;
  language: Language;
}

const ROW = `user_id, trusted_id, threshold, new_payees, status, change, change_at, pending_threshold,
  pending_new_payees`;

/** The row as it stands at `at`: a due removal is gone, a due raise applied. */
function inForce(row: TrustedRow | undefined, at: Date): TrustedRow | null {
  if (!row) return null;
  const due = row.change_at !== null && row.change_at <= at;
  if (due && row.change === 'remove') return null;
  if (due && row.change === 'raise')
    return {
      ...row,
      threshold: row.pending_threshold ?? row.threshold,
      new_payees: row.pending_new_payees ?? row.new_payees,
      change: null,
      change_at: null,
      pending_threshold: null,
      pending_new_payees: null,
    };
  return row;
}

async function personById(q: Queryable, id: string): Promise<Person> {
  const { rows } = await q.query<Person>(
    'SELECT id, phone, first_name, last_name, language FROM users WHERE id = $1',
    [id],
  );
  if (!rows[0]) throw new AppError('INVALID_TOKEN');
  return rows[0];
}

async function ownRow(q: Queryable, userId: string, at: Date, lock = false): Promise<TrustedRow | null> {
  // A closed wallet is nobody's trusted person (endTrustedRoles), whatever a row says.
  const { rows } = await q.query<TrustedRow>(
    `SELECT ${ROW.replace(/(\w+)/g, 't.$1')} FROM trusted_people t
     JOIN users u ON u.id = t.trusted_id AND u.closed_at IS NULL
     WHERE t.user_id = $1${lock ? ' FOR UPDATE OF t' : ''}`,
    [userId],
  );
  return inForce(rows[0], at);
}

/** Writes the row as it stands (a due change applied), or deletes it when its removal is due. */
async function save(q: Queryable, userId: string, row: TrustedRow | null): Promise<void> {
  if (!row) {
    await q.query('DELETE FROM trusted_people WHERE user_id = $1', [userId]);
    return;
  }
  await q.query(
    `UPDATE trusted_people SET threshold = $2, new_payees = $3, status = $4, change = $5, change_at = $6,
       pending_threshold = $7, pending_new_payees = $8 WHERE user_id = $1`,
    [
      userId,
      row.threshold,
      row.new_payees,
      row.status,
      row.change,
      row.change_at,
      row.pending_threshold,
      row.pending_new_payees,
    ],
  );
}

/** Whether a trusted person's approval is in force for the person now (accepted, not yet removed). */
export async function trustedPersonInForce(q: Queryable, userId: string, at: Date): Promise<boolean> {
  return (await ownRow(q, userId, at))?.status === 'active';
}

export async function trustedPersonOf(ctx: AppContext, userId: string): Promise<AnswerOf<'trustedPerson'>> {
  const at = ctx.clock.now();
  const row = await ownRow(ctx.db, userId, at);
  let trustedPerson: AnswerOf<'trustedPerson'>['trusted_person'] = null;
  if (row) {
    const trusted = await personById(ctx.db, row.trusted_id);
    trustedPerson = {
      phone: trusted.phone,
      name: maskedName(trusted.first_name, trusted.last_name),
      threshold: formatAmount(row.threshold, 'RUB'),
      new_payees: row.new_payees,
      status: row.status === 'pending' ? 'pending' : row.change === 'remove' ? 'leaving' : 'active',
      effective_at: row.change_at?.toISOString() ?? null,
      pending:
        row.change === 'raise'
          ? {
              threshold: formatAmount(row.pending_threshold ?? row.threshold, 'RUB'),
              new_payees: row.pending_new_payees ?? row.new_payees,
            }
          : null,
    };
  }
  const { rows } = await ctx.db.query<TrustedRow & Person>(
    `SELECT t.user_id, t.trusted_id, t.threshold, t.new_payees, t.status, t.change, t.change_at, t.pending_threshold,
       t.pending_new_payees, u.id, u.phone, u.first_name, u.last_name
     FROM trusted_people t JOIN users u ON u.id = t.user_id AND u.closed_at IS NULL
     WHERE t.trusted_id = $1 ORDER BY t.created_at`,
    [userId],
  );
  const trusting = rows.flatMap((person) => {
    const inEffect = inForce(person, at);
    if (!inEffect) return [];
    return [
      {
        id: person.user_id,
        name: maskedName(person.first_name, person.last_name),
        phone: person.phone,
        status:
          inEffect.status === 'pending'
            ? ('pending' as const)
            : inEffect.change === 'remove'
              ? ('leaving' as const)
              : ('active' as const),
      },
    ];
  });
  return { status: 'success', trusted_person: trustedPerson, trusting, left: await leftOf(ctx, userId) };
}

/** Whose role ended last, and why, until the person names another (endTrustedRoles). */
async function leftOf(ctx: AppContext, userId: string): Promise<AnswerOf<'trustedPerson'>['left']> {
  const { rows } = await ctx.db.query<{
    reason: RoleEnd;
    left_at: Date;
    first_name: string;
    last_name: string;
  }>(
    `SELECT l.reason, l.left_at, u.first_name, u.last_name
     FROM trusted_people_left l JOIN users u ON u.id = l.trusted_id WHERE l.user_id = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    name: maskedName(row.first_name, row.last_name),
    reason: row.reason,
    left_at: row.left_at.toISOString(),
  };
}

/** Tells both people of a change: the bell (and push) for each, and an SMS to each phone. */
async function tellBoth(
  ctx: AppContext,
  q: Queryable,
  people: Person[],
  change: keyof typeof CHANGES,
  at: Date,
): Promise<() => Promise<void>> {
  for (const person of people)
    await notify(
      q,
      person.id,
      'security',
      'trusted_changed',
      { change: CHANGES[change].ru, change_en: CHANGES[change].en },
      at,
    );
  return async () => {
    for (const person of people)
      await sendNotice(
        ctx,
        person.phone,
        fill(SMS.trustedChange[person.language], { change: CHANGES[change][person.language] }),
      );
  };
}

export async function setTrustedPerson(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'trustedPersonSet'>,
): Promise<AnswerOf<'trustedPersonSet'>> {
  const threshold = amountOf(body.threshold, 'RUB');
  const { rows } = await ctx.db.query<Person>(
    'SELECT id, phone, first_name, last_name, language FROM users WHERE phone = $1 AND closed_at IS NULL',
    [body.phone],
  );
  const trusted = rows[0];
  if (!trusted) throw new AppError('TRUSTED_PERSON_UNKNOWN');
  if (trusted.id === userId) throw new AppError('TRUSTED_PERSON_SELF');
  const tell = await ctx.db.tx(async (q) => {
    const at = ctx.clock.now();
    const me = await personById(q, userId);
    const row = await ownRow(q, userId, at, true);
    if (!row) {
      trustedPersonChanging(q, userId);
      await q.query('DELETE FROM trusted_people WHERE user_id = $1', [userId]);
      await q.query('DELETE FROM trusted_people_left WHERE user_id = $1', [userId]);
      await q.query(
        `INSERT INTO trusted_people (user_id, trusted_id, threshold, new_payees, status, created_at)
         VALUES ($1, $2, $3, $4, 'pending', $5)`,
        [userId, trusted.id, threshold, body.new_payees, at],
      );
      await notify(
        q,
        trusted.id,
        'security',
        'trusted_invited',
        { person: maskedName(me.first_name, me.last_name) },
        at,
      );
      return tellBoth(ctx, q, [me], 'named', at);
    }
    if (row.trusted_id !== trusted.id) throw new AppError('TRUSTED_PERSON_EXISTS');
    if (row.status === 'pending') {
      await save(q, userId, { ...row, threshold, new_payees: body.new_payees });
      return async () => {};
    }
    // Asking again cancels a removal; what strengthens is at once, what weakens waits.
    const weakens = threshold > row.threshold || (row.new_payees && !body.new_payees);
    const next: TrustedRow = {
      ...row,
      threshold: threshold < row.threshold ? threshold : row.threshold,
      new_payees: row.new_payees || body.new_payees,
      change: weakens ? 'raise' : null,
      change_at: weakens ? new Date(at.getTime() + TRUSTED_CHANGE_HOURS * 3_600_000) : null,
      pending_threshold: weakens ? threshold : null,
      pending_new_payees: weakens ? body.new_payees : null,
    };
    await save(q, userId, next);
    return tellBoth(ctx, q, [me, await personById(q, row.trusted_id)], weakens ? 'raised' : 'lowered', at);
  });
  await tell();
  return trustedPersonOf(ctx, userId);
}

export async function removeTrustedPerson(
  ctx: AppContext,
  userId: string,
): Promise<AnswerOf<'trustedPersonRemove'>> {
  const tell = await ctx.db.tx(async (q) => {
    const at = ctx.clock.now();
    const row = await ownRow(q, userId, at, true);
    if (!row) throw new AppError('TRUSTED_PERSON_NOT_FOUND');
    const people = [await personById(q, userId), await personById(q, row.trusted_id)];
    if (row.status === 'pending') {
      await save(q, userId, null);
      return tellBoth(ctx, q, people, 'removed', at);
    }
    if (row.change === 'remove') return async () => {};
    await save(q, userId, {
      ...row,
      change: 'remove',
      change_at: new Date(at.getTime() + TRUSTED_CHANGE_HOURS * 3_600_000),
      pending_threshold: null,
      pending_new_payees: null,
    });
    return tellBoth(ctx, q, people, 'removing', at);
  });
  await tell();
  return trustedPersonOf(ctx, userId);
}

/** The named person accepts: from now on the one who named them waits for their approvals. */
export async function acceptTrustedPerson(
  ctx: AppContext,
  trustedId: string,
  personId: string,
): Promise<AnswerOf<'trustedPersonAccept'>> {
  const tell = await ctx.db.tx(async (q) => {
    const at = ctx.clock.now();
    const row = await ownRow(q, personId, at, true);
    if (!row || row.trusted_id !== trustedId || row.status !== 'pending')
      throw new AppError('TRUSTED_PERSON_NOT_FOUND');
    await q.query(`UPDATE trusted_people SET status = 'active', accepted_at = $2 WHERE user_id = $1`, [
      personId,
      at,
    ]);
    return tellBoth(ctx, q, [await personById(q, personId), await personById(q, trustedId)], 'accepted', at);
  });
  await tell();
  return trustedPersonOf(ctx, trustedId);
}

export type RoleEnd = 'closed' | 'frozen' | 'left';

/**
 * Ends the trusted-person roles `trustedId` holds (of one person, or all of them), in the caller's
 * transaction: their wallet closed or froze, or they stepped down. Each person who named them is told,
 * keeps who left and why until naming another, and confirms what waited for the approval themselves
 * (a fresh SMS code and the PIN), as any held operation. Answers how many roles ended.
 */
export async function endTrustedRoles(
  q: Queryable,
  trustedId: string,
  why: RoleEnd,
  at: Date,
  person?: string,
): Promise<number> {
  const { rows } = await q.query<{ user_id: string }>(
    `DELETE FROM trusted_people WHERE trusted_id = $1 AND ($2::uuid IS NULL OR user_id = $2) RETURNING user_id`,
    [trustedId, person ?? null],
  );
  if (rows.length === 0) return 0;
  const trusted = await personById(q, trustedId);
  const name = maskedName(trusted.first_name, trusted.last_name);
  for (const { user_id } of rows) {
    trustedPersonChanging(q, user_id);
    await q.query(
      `INSERT INTO trusted_people_left (user_id, trusted_id, reason, left_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET trusted_id = $2, reason = $3, left_at = $4`,
      [user_id, trustedId, why, at],
    );
    await q.query(
      `UPDATE money_holds SET status = 'held', approver_id = NULL,
         expires_at = greatest(expires_at, $3::timestamptz + make_interval(hours => $4))
       WHERE user_id = $1 AND approver_id = $2 AND status = 'awaiting_approval'`,
      [user_id, trustedId, at, HOLD_HOURS],
    );
    await notify(
      q,
      user_id,
      'security',
      'trusted_left',
      { name, reason: LEFT_BECAUSE[why].ru, reason_en: LEFT_BECAUSE[why].en },
      at,
    );
  }
  return rows.length;
}

/** A closing wallet's own trusted person is told the role is over (the closed wallet pays nothing more). */
export async function endOwnTrustedPerson(q: Queryable, userId: string, at: Date): Promise<void> {
  const { rows } = await q.query<{ trusted_id: string }>(
    'DELETE FROM trusted_people WHERE user_id = $1 RETURNING trusted_id',
    [userId],
  );
  await q.query('DELETE FROM trusted_people_left WHERE user_id = $1', [userId]);
  if (!rows[0]) return;
  trustedPersonChanging(q, userId);
  await notify(
    q,
    rows[0].trusted_id,
    'security',
    'trusted_changed',
    { change: CHANGES.removed.ru, change_en: CHANGES.removed.en },
    at,
  );
}

/** The trusted person steps down from one person's role (or declines being named): at once. */
export async function leaveTrustedRole(
  ctx: AppContext,
  trustedId: string,
  personId: string,
): Promise<AnswerOf<'trustedPersonLeave'>> {
  const ended = await ctx.db.tx((q) => endTrustedRoles(q, trustedId, 'left', ctx.clock.now(), personId));
  if (ended === 0) throw new AppError('TRUSTED_PERSON_NOT_FOUND');
  return trustedPersonOf(ctx, trustedId);
}

/** The sweep's part (modules/holds jobs): writes the changes now due and tells both people. */
export async function applyDueTrustedChanges(ctx: AppContext): Promise<number> {
  const at = ctx.clock.now();
  const { rows } = await ctx.db.query<{ user_id: string }>(
    'SELECT user_id FROM trusted_people WHERE change_at <= $1 LIMIT 100',
    [at],
  );
  for (const { user_id } of rows) {
    const tell = await ctx.db.tx(async (q) => {
      const { rows: locked } = await q.query<TrustedRow>(
        `SELECT ${ROW} FROM trusted_people WHERE user_id = $1 AND change_at <= $2 FOR UPDATE`,
        [user_id, at],
      );
      const row = locked[0];
      if (!row) return async () => {};
      const people = [await personById(q, row.user_id), await personById(q, row.trusted_id)];
      await save(q, row.user_id, inForce(row, at));
      return tellBoth(ctx, q, people, row.change === 'remove' ? 'removed' : 'changeApplied', at);
    });
    await tell();
  }
  return rows.length;
}
