// Results of the named prepared statements (pipeline.ts), each row parsed by its statement's shape,
// built once. pg builds a result's row template and type parsers anew from every RowDescription:
// about 25 µs for a 36-column row (a null-prototype object spread, V8's slow path), ten times what
// parsing the row costs, on every statement. A named statement's shape never changes (Postgres
// refuses a plan whose result type would: prepared.ts renames the statement then).
// Upstream: brianc/node-postgres#3753.
import pg from 'pg';

/** What pg tells of a result's column. */
interface Field {
  name: string;
  dataTypeID: number;
  format: string;
}

interface Shape {
  names: string[];
  parsers: ((text: string) => unknown)[];
  /** Every column null, as a plain object: copying it gives each row the same hidden class. */
  template: Record<string, unknown>;
}

const shapes = new Map<string, Shape>();

function shapeOf(fields: Field[]): Shape {
  // Built as pg builds it: a null-prototype object, so a column named __proto__ is an own property.
  const empty: Record<string, unknown> = Object.create(null);
  for (const field of fields) empty[field.name] = null;
  return {
    names: fields.map((f) => f.name),
    parsers: fields.map((f) => pg.types.getTypeParser(f.dataTypeID, 'text')),
    template: { ...empty },
  };
}

/** The shape statement `name` answers with: the one seen before, unless its columns are not those. */
function shapeNamed(name: string, fields: Field[]): Shape {
  const known = shapes.get(name);
  if (known && known.names.length === fields.length && known.names.every((n, i) => n === fields[i]!.name)) return known;
  const shape = shapeOf(fields);
  shapes.set(name, shape);
  return shape;
}

/** pg's Result (its public methods kept), with addFields and parseRow by the statement's shape. */
const Result = (pg as unknown as { Result: new () => { fields: Field[] } }).Result;

class ShapedResult extends Result {
  private shape!: Shape;

  constructor(private readonly statement: string) {
    super();
  }

  addFields(fields: Field[]): void {
    this.fields = fields;
    // Binary columns only come when asked for, and no statement here asks.
    if (fields.some((f) => f.format === 'binary')) throw new Error(`Statement ${this.statement} answered binary columns`);
    this.shape = shapeNamed(this.statement, fields);
  }

  parseRow(values: (string | null)[]): Record<string, unknown> {
    const { names, parsers, template } = this.shape;
    const row = { ...template };
    for (let i = 0; i < values.length; i++) {
      const value = values[i]!;
      if (value !== null) row[names[i]!] = parsers[i]!(value);
    }
    return row;
  }
}

/** pg's Query, its result a ShapedResult: one statement, sent by name (the extended protocol's one result). */
class ShapedQuery extends pg.Query {
  constructor(name: string, text: string, values: unknown[], callback: (err: Error | undefined, result: pg.QueryResult) => void) {
    super({ name, text, values }, callback as never);
    const result = new ShapedResult(name);
    Object.assign(this, { _result: result, _results: result });
  }
}

/** Statement `text`, prepared on the connection as `name`, with `values`: its rows parsed by its shape. */
export function shapedQuery(client: pg.ClientBase, name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(new ShapedQuery(name, text, values, (err, result) => (err ? reject(err) : resolve(result))));
  });
}
