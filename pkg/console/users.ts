// An account's console users: added by the operator or invited by an owner, their roles changed or
// removed by an owner, never leaving the account without an owner.
import { z } from 'zod';
import type { Ctx, DbClock } from '../context.js';
import { Conflict, NotFound } from '../errors.js';
import { prefixedId } from '../ids.js';
import { parseInput } from '../validate.js';
import { getTenant } from '../store/tenants.js';
import { ROLES, type Role } from './roles.js';
import { audit, type Actor } from './audit.js';
import { issueSignInLink } from './links.js';
import type { DbRow } from '../db/index.js';

export interface ConsoleUser {
  id: string;
  tenantId: string;
  email: string;
  name: string;
  role: Role;
  /** False until the user sets a password (an invitation not yet taken up, or signed in by link only). */
  passwordSet: boolean;
  createdAt: string;
}

export const toUser = (r: DbRow): ConsoleUser => ({
  id: r.id,
  tenantId: r.tenant_id,
  email: r.email,
  name: r.name,
  role: r.role,
  passwordSet: r.password_hash !== null,
  createdAt: r.created_at.toISOString(),
});

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address');

const newUserSchema = z
  .object({
    email: emailSchema,
    name: z.string().trim().max(200).default(''),
    role: z.enum(ROLES),
  })
  .strict();
export type NewUser = z.input<typeof newUserSchema>;

/**
 * A user of the actor's account (the operator's `admin user add`, or an owner's invitation) and the
 * one-time link they sign in with; 409 `email_taken` when the address already signs in somewhere.
 */
export async function addUser(
  ctx: Pick<Ctx, 'db' | 'clock' | 'config'>,
  actor: Actor,
  input: NewUser,
): Promise<{ user: ConsoleUser; signInUrl: string }> {
  const fields = parseInput(newUserSchema, input, 'user');
  await getTenant(ctx, actor.tenantId);
  return ctx.db.transaction(async (trx) => {
    const now = ctx.clock.now();
    const [row] = await trx('console_users')
      .insert({ id: prefixedId('usr'), tenant_id: actor.tenantId, ...fields, created_at: now, updated_at: now })
      .onConflict('email')
      .ignore()
      .returning('*');
    if (!row) throw new Conflict(`${fields.email} is already a console user`, 'email_taken');
    const user = toUser(row);
    const signInUrl = await issueSignInLink({ ...ctx, db: trx }, user.id);
    await audit({ ...ctx, db: trx }, actor, actor.user ? 'user.invited' : 'user.added', user.id, { email: user.email, role: user.role });
    return { user, signInUrl };
  });
}

export async function listUsers(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<ConsoleUser[]> {
  const rows = await ctx
    .db('console_users')
    .where({ tenant_id: tenantId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(toUser);
}

/**
 * The account's owners, their rows held until the transaction `ctx.db` ends. Every change of a user
 * takes them first, in id order, so two owners demoting each other queue instead of deadlocking.
 */
async function lockOwners(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<string[]> {
  const rows = await ctx.db('console_users').where({ tenant_id: tenantId, role: 'owner' }).orderBy('id').forUpdate().select('id');
  return rows.map((r) => r.id);
}

/** The user `id` of `tenantId` (404 for another account's), its row held until the transaction `ctx.db` ends. */
async function lockedUser(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<DbRow> {
  const row = await ctx.db('console_users').where({ id, tenant_id: tenantId }).forUpdate().first();
  if (!row) throw new NotFound(`No user ${id} in this account`);
  return row;
}

/** 409 `last_owner` when `user` would leave `owners` empty. */
function keepAnOwner(owners: string[], user: DbRow): void {
  if (user.role === 'owner' && owners.length <= 1)
    throw new Conflict('The account would have no owner: make another user owner first', 'last_owner');
}

const roleSchema = z.object({ role: z.enum(ROLES) }).strict();

export async function changeRole(ctx: DbClock, actor: Actor, id: string, input: unknown): Promise<ConsoleUser> {
  const { role } = parseInput(roleSchema, input, 'user');
  return ctx.db.transaction(async (trx) => {
    const owners = await lockOwners({ db: trx }, actor.tenantId);
    const row = await lockedUser({ db: trx }, actor.tenantId, id);
    if (role !== 'owner') keepAnOwner(owners, row);
    const [updated] = await trx('console_users').where({ id }).update({ role, updated_at: ctx.clock.now() }).returning('*');
    if (row.role !== role) await audit({ ...ctx, db: trx }, actor, 'user.role_changed', id, { email: row.email, from: row.role, to: role });
    return toUser(updated);
  });
}

/** Removes the user, their sessions and links with them. */
export async function removeUser(ctx: DbClock, actor: Actor, id: string): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const owners = await lockOwners({ db: trx }, actor.tenantId);
    const row = await lockedUser({ db: trx }, actor.tenantId, id);
    keepAnOwner(owners, row);
    await trx('console_users').where({ id }).delete();
    await audit({ ...ctx, db: trx }, actor, 'user.removed', id, { email: row.email, role: row.role });
  });
}
