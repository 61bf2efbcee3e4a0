// The console API's wire shapes (snake_case, as the Voice API).
import type { ConsoleSession } from '../../pkg/console/sessions.js';
import type { ConsoleUser } from '../../pkg/console/users.js';

export const userView = (u: ConsoleUser) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  password_set: u.passwordSet,
  created_at: u.createdAt,
});

export const sessionView = (s: ConsoleSession) => ({
  user: { id: s.user.id, email: s.user.email, name: s.user.name, role: s.user.role },
  account: s.account,
  csrf_token: s.csrfToken,
});
