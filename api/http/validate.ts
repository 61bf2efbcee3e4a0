// Request parsing with zod: a failure is a 400 listing each invalid field (dotted path).
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { parseInput } from '../../pkg/validate.js';

export function parse<S extends z.ZodType>(schema: S, value: unknown, what = 'body'): z.output<S> {
  return parseInput(schema, value ?? {}, `request ${what}`, what);
}

/** Reads the body with `json` (express.json) from inside a route that must decide for itself when to report its errors. */
export function readBody(json: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => json(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}
