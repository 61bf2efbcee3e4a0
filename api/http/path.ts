// Ids come from the path; a path segment that is not valid percent-encoded UTF-8 names nothing, so
// it is answered 404 before any route decodes it as an id (the router would throw, answering 500).
import type { RequestHandler } from 'express';
import { NotFound } from '../../pkg/errors.js';

const decodes = (segment: string): boolean => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

export const refuseUndecodablePath: RequestHandler = (req, _res, next) => {
  if (!req.path.split('/').every(decodes)) throw new NotFound('No such resource: the path is not valid percent-encoded UTF-8');
  next();
};
