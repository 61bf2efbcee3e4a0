// Ids come from the path; a path segment that is not valid percent-encoded UTF-8, or that holds a NUL
// (which Postgres cannot compare), names nothing: 404 before any route reads it as an id.
import type { RequestHandler } from 'express';
import { NotFound } from '../../pkg/errors.js';

const canName = (segment: string): boolean => {
  try {
    return !decodeURIComponent(segment).includes('\0');
  } catch {
    return false;
  }
};

export const refuseImpossiblePath: RequestHandler = (req, _res, next) => {
  if (!req.path.split('/').every(canName)) throw new NotFound('No such resource: the path is not valid percent-encoded UTF-8 without NUL');
  next();
};
