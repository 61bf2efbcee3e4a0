// Text Postgres cannot store (NUL) or that is not Unicode (an unpaired surrogate), anywhere in a body,
// query string or MCP tool's arguments, is a refused value: 422 `invalid_<field>`, before any route reads it.
import type { RequestHandler } from 'express';
import { Unprocessable } from '../../pkg/errors.js';
import { UNSTORABLE_TEXT, unstorableTextAt } from '../../pkg/validate.js';

/** The refusal of `input` (a body, query or tool's arguments; `what` names it when the problem is the whole value), or undefined. */
export function unstorableTextRefusal(input: unknown, what: string): Unprocessable | undefined {
  const path = unstorableTextAt(input);
  if (!path) return undefined;
  return new Unprocessable(`${path.join('.') || what}: ${UNSTORABLE_TEXT}`, `invalid_${path[0] ?? what}`);
}

export const refuseUnstorableText: RequestHandler = (req, _res, next) => {
  const refusal = unstorableTextRefusal(req.query, 'query') ?? unstorableTextRefusal(req.body, 'body');
  if (refusal) throw refusal;
  next();
};
