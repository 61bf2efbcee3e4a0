// JSON merge patch (RFC 7386, what `kubectl annotate` sends) and JSON patch (RFC 6902).
import { isDeepStrictEqual } from 'node:util';
import { ApiError, statusError, type Obj } from './errors.js';

const isPlainObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const out: Obj = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

const invalidPatch = (message: string) => new ApiError(422, 'Invalid', message);

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw invalidPatch(`invalid JSON pointer: ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(document: unknown, tokens: string[], path: string): { container: any; key: string } {
  let container: any = document;
  for (const token of tokens.slice(0, -1)) {
    container = Array.isArray(container) ? container[Number(token)] : isPlainObject(container) ? container[token] : undefined;
    if (container === undefined) throw invalidPatch(`jsonpatch: path ${path} does not exist`);
  }
  return { container, key: tokens[tokens.length - 1] };
}

function read(document: unknown, path: string): unknown {
  let value: any = document;
  for (const token of pointer(path)) {
    value = Array.isArray(value) ? value[Number(token)] : isPlainObject(value) ? value[token] : undefined;
    if (value === undefined) throw invalidPatch(`jsonpatch: path ${path} does not exist`);
  }
  return value;
}

function remove(document: unknown, path: string): unknown {
  const { container, key } = parentOf(document, pointer(path), path);
  if (Array.isArray(container)) {
    const index = Number(key);
    if (!(index >= 0 && index < container.length)) throw invalidPatch(`jsonpatch remove operation does not apply: doc is missing path: ${path}`);
    return container.splice(index, 1)[0];
  }
  if (!isPlainObject(container) || !Object.hasOwn(container, key)) throw invalidPatch(`jsonpatch remove operation does not apply: doc is missing path: ${path}`);
  const value = container[key];
  delete container[key];
  return value;
}

function add(document: unknown, path: string, value: unknown, replace: boolean): unknown {
  const tokens = pointer(path);
  if (tokens.length === 0) return structuredClone(value);
  const { container, key } = parentOf(document, tokens, path);
  if (Array.isArray(container)) {
    const index = key === '-' ? container.length : Number(key);
    if (!(index >= 0 && index <= container.length - (replace ? 1 : 0))) throw invalidPatch(`jsonpatch: index ${key} out of bounds for ${path}`);
    container.splice(index, replace ? 1 : 0, structuredClone(value));
  } else if (isPlainObject(container)) {
    if (replace && !Object.hasOwn(container, key)) throw invalidPatch(`jsonpatch replace operation does not apply: doc is missing key: ${path}`);
    container[key] = structuredClone(value);
  } else throw invalidPatch(`jsonpatch: path ${path} does not exist`);
  return document;
}

export function jsonPatch(document: Obj, operations: unknown): Obj {
  if (!Array.isArray(operations)) throw statusError.badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc: unknown = structuredClone(document);
  for (const operation of operations as Operation[]) {
    switch (operation.op) {
      case 'add':
        doc = add(doc, operation.path, operation.value, false);
        break;
      case 'replace':
        doc = add(doc, operation.path, operation.value, true);
        break;
      case 'remove':
        remove(doc, operation.path);
        break;
      case 'move':
        doc = add(doc, operation.path, remove(doc, operation.from ?? ''), false);
        break;
      case 'copy':
        doc = add(doc, operation.path, read(doc, operation.from ?? ''), false);
        break;
      case 'test':
        if (!isDeepStrictEqual(read(doc, operation.path), operation.value)) throw invalidPatch(`testing value ${operation.path} failed: test failed`);
        break;
      default:
        throw statusError.badRequest(`Unexpected kind: ${operation.op}`);
    }
  }
  if (!isPlainObject(doc)) throw invalidPatch('the patched document is not an object');
  return doc;
}
