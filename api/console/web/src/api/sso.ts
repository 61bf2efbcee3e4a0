// The console's client for how one may sign in (/console/api/sign-in/options) and single sign-on (/console/sso).
import { api } from '../api';

export interface SignInOptions {
  password: boolean;
  /** Whether the deployment signs people in through its OpenID provider. */
  sso: boolean;
}

export const signInOptions = () => api.get<SignInOptions>('/sign-in/options');

/** Where the browser starts single sign-on (a navigation, not a fetch), to come back to `next`. */
export const ssoStartUrl = (next: string): string => (next === '/' ? '/console/sso' : `/console/sso?next=${encodeURIComponent(next)}`);

/** What the person can do about each refusal the server sends back as `?sso_error=`, in their words. */
export function explainSsoRefusal(reason: string): string {
  switch (reason) {
    case 'not_a_user':
      return 'Single sign-on worked, but no Switchboard user has your email address. Ask an owner of your account to invite you.';
    case 'email_unverified':
      return 'Your identity provider has not verified your email address, so it cannot sign you in here.';
    case 'denied':
      return 'Single sign-on was cancelled or refused by your identity provider.';
    case 'expired':
      return 'That single sign-on took too long or was used already. Try again.';
    case 'unavailable':
      return 'Single sign-on is not reachable right now. Try again later, or sign in with your password.';
    case 'rate_limited':
      return 'Too many attempts. Wait a minute, then try again.';
    default:
      return 'Single sign-on could not be completed. Try again.';
  }
}
