// The connected app a request names (the Switchboard-App header, or an MCP client's name), as it is
// limited, metered and reported.

/** The longest app name kept, in characters; longer declared names are cut there. */
const MAX_APP_LENGTH = 100;

/** Control characters (NUL among them: Postgres refuses it) and unpaired surrogates: never part of a name. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/gu;

/** A declared app name cleaned of unprintable characters, trimmed, at most MAX_APP_LENGTH characters (never half of one); '' for none. */
export const appName = (declared: string | null | undefined): string =>
  [...(declared ?? '').replace(UNPRINTABLE, '').trim()].slice(0, MAX_APP_LENGTH).join('');
