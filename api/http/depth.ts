// A JSON body nested deeper than MAX_JSON_DEPTH is refused before any route reads it, naming its field:
// storing or measuring it (JSON.stringify) would overflow the call stack, a 500.
import type { RequestHandler } from 'express';
import { MAX_JSON_DEPTH, invalid, nestedTooDeepAt } from '../../pkg/validate.js';

/** The refusal of `body` when it nests too deep, naming the top-level field it does it in. */
export function tooDeepRefusal(body: unknown) {
  const path = nestedTooDeepAt(body);
  return path && invalid('request body', [{ path: path[0] ?? 'body', message: `nested more than ${MAX_JSON_DEPTH} levels deep` }]);
}

export const refuseDeepBody: RequestHandler = (req, _res, next) => {
  const refusal = tooDeepRefusal(req.body);
  if (refusal) throw refusal;
  next();
};
