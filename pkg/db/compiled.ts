// Statements knex compiles once per process and shape, not on every send: on the paths every
// request, turn and job takes, compiling them cost the API and the controllers more CPU than
// Postgres spent running them.
import type { Knex } from 'knex';

/** Where a value goes in a compiled statement: the index of its leaf in the values. */
class Parameter {
  constructor(readonly index: number) {}
}

type Built = Knex.QueryBuilder | Knex.Raw;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * The leaves of `values` in order (plain objects and arrays are walked, undefined is left out),
 * pushed onto `leaves`, and its shape: the keys present and each array's length, nested ones
 * included. One string, built without a path per leaf: it is made for every statement sent.
 */
function shapeOf(values: unknown, leaves: unknown[]): string {
  if (Array.isArray(values)) {
    let shape = '[';
    for (const value of values) shape += `${shapeOf(value, leaves)},`;
    return `${shape}]`;
  }
  if (!isPlainObject(values)) {
    leaves.push(values);
    return '';
  }
  let shape = '{';
  for (const key in values) {
    const value = values[key];
    // The key's length first, so no key can read as another's nesting.
    if (value !== undefined) shape += `${key.length}${key}:${shapeOf(value, leaves)},`;
  }
  return `${shape}}`;
}

/**
 * `values` with each leaf replaced by its Parameter, in shapeOf's order: knex compiles that as it
 * would the values, a row or list for each of theirs. Only for a shape not compiled yet.
 */
function parametersOf(values: unknown, next: { index: number }): unknown {
  if (Array.isArray(values)) return values.map((value) => parametersOf(value, next));
  if (!isPlainObject(values)) return new Parameter(next.index++);
  const parameters: Record<string, unknown> = {};
  for (const key in values) {
    const value = values[key];
    if (value !== undefined) parameters[key] = parametersOf(value, next);
  }
  return parameters;
}

/** A binding with its parameters filled in from `leaves`: an array bound as one value (a Postgres array) has them as elements. */
const filled = (binding: unknown, leaves: unknown[]): unknown =>
  binding instanceof Parameter ? leaves[binding.index] : Array.isArray(binding) ? binding.map((b) => filled(b, leaves)) : binding;

function compile(built: Built): Knex.SqlNative {
  const native = built.toSQL().toNative();
  // A nested object reached knex as one value: its leaves, parameters, would never be filled in.
  if (native.bindings.some(isPlainObject))
    throw new Error(`A compiled statement's value is an object; give it as JSON text: ${native.sql}`);
  return native;
}

/**
 * `build`'s statement, compiled by knex once for each shape of its values (the keys present in
 * them and the lengths of their arrays, nested ones included) and then sent with each call's
 * values as parameters. So `build` only places the values it is given and never looks at them:
 * each leaf is a scalar (a string, number, date, null or JSON text) placed where a parameter goes
 * whatever it is (not as a where object's value, whose null would compile to `is null`).
 */
export function compiledOnce<V extends object>(build: (db: Knex, values: V) => Built): (db: Knex, values: V) => Knex.SqlNative {
  const shapes = new Map<string, Knex.SqlNative>();
  return (db, values) => {
    const leaves: unknown[] = [];
    const key = shapeOf(values, leaves);
    let compiled = shapes.get(key);
    if (!compiled) {
      compiled = compile(build(db, parametersOf(values, { index: 0 }) as V));
      shapes.set(key, compiled);
    }
    return { sql: compiled.sql, bindings: compiled.bindings.map((b) => filled(b, leaves)) as Knex.Value[] };
  };
}
