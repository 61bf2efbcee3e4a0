// Values from the JSON schemas of a served OpenAPI 3.1 document: fast-check arbitraries of values the
// schema accepts, and of values one step outside it (a wrong type, a bound crossed, a field missing).
import fc from 'fast-check';

export type Schema = Record<string, any>;

/** Resolves `#/components/schemas/X` (and any other local pointer) against the document. */
export function resolver(doc: any): (s: Schema) => Schema {
  return (s) => {
    let schema = s;
    while (schema && typeof schema.$ref === 'string') {
      const path = schema.$ref
        .replace(/^#\//, '')
        .split('/')
        .map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
      schema = path.reduce((node: any, key: string) => node?.[key], doc);
    }
    return schema ?? {};
  };
}

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  uuid: () => fc.uuid(),
  'date-time': () => fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl({ validSchemes: ['https'] }),
};

/** Any JSON value, small: what an unconstrained schema (`{}`, metadata objects) holds. */
const anyJson = (): fc.Arbitrary<unknown> => fc.jsonValue({ maxDepth: 2 }).map((v) => v as unknown);

function stringOf(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, min + 60);
  if (s.format && FORMATS[s.format] && !s.pattern) return FORMATS[s.format]!();
  if (s.pattern) {
    // Patterns of the documents are anchored; a bounded match of them is what a client would send.
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((v) => v.length >= min && (s.maxLength === undefined || v.length <= s.maxLength));
  }
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
}

function numberOf(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : integer ? -1000 : -1e6);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : integer ? 100_000 : 1e6);
  return integer
    ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
}

/** A value `schema` accepts (as the document says; the server may still refuse it on meaning). */
export function valid(doc: any, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const resolve = resolver(doc);
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) {
    // Past a few levels, only the first alternative without further steps ends a recursive schema.
    const choices = depth > 3 ? alternatives.filter((a: Schema) => !JSON.stringify(resolve(a)).includes('$ref')).slice(0, 1) : alternatives;
    return fc.oneof(...(choices.length ? choices : alternatives.slice(0, 1)).map((a: Schema) => valid(doc, a, depth + 1)));
  }
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => valid(doc, { ...s, type: t }, depth)));
  switch (type[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberOf(s, true);
    case 'number':
      return numberOf(s, false);
    case 'string':
      return stringOf(s);
    case 'array': {
      const min = s.minItems ?? 0;
      return fc.array(valid(doc, s.items ?? {}, depth + 1), { minLength: min, maxLength: Math.min(s.maxItems ?? 3, min + 3) });
    }
    case 'object':
      return objectOf(doc, s, depth);
    default:
      return anyJson();
  }
}

function objectOf(doc: any, s: Schema, depth: number): fc.Arbitrary<unknown> {
  const props: Record<string, Schema> = s.properties ?? {};
  if (!Object.keys(props).length && s.additionalProperties && typeof s.additionalProperties === 'object') {
    const keys = s.propertyNames ? stringOf(s.propertyNames) : fc.string({ minLength: 1, maxLength: 12 });
    const deeper = depth > 3 ? fc.constant({}) : fc.dictionary(keys, valid(doc, s.additionalProperties, depth + 1), { maxKeys: 3 });
    return deeper;
  }
  if (!Object.keys(props).length && s.additionalProperties === false) return fc.constant({});
  if (!Object.keys(props).length) return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), anyJson(), { maxKeys: 3 });
  const required: string[] = s.required ?? [];
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of Object.entries(props)) record[name] = valid(doc, prop, depth + 1);
  return fc.record(record, { requiredKeys: required });
}

/** A property schema in `schema`, by name, resolved (for the mutations below). */
const propertiesOf = (doc: any, schema: Schema): Record<string, Schema> => {
  const s = resolver(doc)(schema);
  const alternatives: Schema[] = s.oneOf ?? s.anyOf ?? [s];
  return Object.assign({}, ...alternatives.map((a) => resolver(doc)(a).properties ?? {}));
};

/** A value of the wrong kind, or just past a bound, for `schema`. */
export function outside(doc: any, schema: Schema): fc.Arbitrary<unknown> {
  const s = resolver(doc)(schema);
  const wrongKinds: fc.Arbitrary<unknown>[] = [
    fc.constantFrom<unknown>(null, true, 0, -1, '', [], {}, 'x'),
    fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 1.5, 0.1, -0, 2 ** 31, 2 ** 32),
  ];
  if (s.maxLength !== undefined) wrongKinds.push(fc.constant('x'.repeat(s.maxLength + 1)));
  if (s.minLength) wrongKinds.push(fc.constant('x'.repeat(s.minLength - 1)));
  if (s.maximum !== undefined) wrongKinds.push(fc.constantFrom(s.maximum + 1, s.maximum + 0.5, s.maximum * 1e6 + 1));
  if (s.minimum !== undefined) wrongKinds.push(fc.constantFrom(s.minimum - 1, s.minimum - 0.5, -1e15));
  if (s.maxItems !== undefined) wrongKinds.push(fc.constant(Array.from({ length: s.maxItems + 1 }, () => ({}))));
  if (s.enum || s.const !== undefined) wrongKinds.push(fc.string({ maxLength: 12 }));
  if (s.format === 'uuid')
    wrongKinds.push(fc.constantFrom('00000000-0000-0000-0000-00000000000g', 'not-a-uuid', '{00000000-0000-0000-0000-000000000000}'));
  return fc.oneof(...wrongKinds);
}

/** A valid object with one field changed for a value outside its schema, removed, or an unknown one added. */
export function mutated(doc: any, schema: Schema): fc.Arbitrary<unknown> {
  const props = propertiesOf(doc, schema);
  const names = Object.keys(props);
  return fc
    .tuple(valid(doc, schema), names.length ? fc.constantFrom(...names) : fc.constant('field'), fc.nat(3))
    .chain(([base, name, how]) => {
      const object = base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
      if (how === 0) {
        delete object[name];
        return fc.constant(object);
      }
      if (how === 1) return fc.string({ minLength: 1, maxLength: 20 }).map((extra) => ({ ...object, [`${extra}_unknown`]: 1 }));
      return outside(doc, props[name] ?? {}).map((bad) => ({ ...object, [name]: bad }));
    });
}
