// The console's roles (DECISIONS.md "Console"), a ladder: each role may do what those below it may.
import { Forbidden } from '../errors.js';

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const rank = (role: Role): number => ROLES.length - ROLES.indexOf(role);

export const roleAtLeast = (role: Role, needed: Role): boolean => rank(role) >= rank(needed);

/** 403 `forbidden` when `role` is below `needed`. */
export function requireRole(role: Role, needed: Role): void {
  if (!roleAtLeast(role, needed)) throw new Forbidden(`This needs the ${needed} role or above; you are ${role}`);
}
