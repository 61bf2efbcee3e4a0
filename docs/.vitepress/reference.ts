// The API reference, generated at build time from openapi/agent-api.json and openapi/voice-api.json:
// one page per tag (each operation under the anchor of its operationId) and one for each
// document's webhooks. Used by the dynamic routes in docs/reference/*/ and by the sidebar.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The parts of an OpenAPI 3.1 schema this page renders. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
}

type Content = Record<string, { schema?: Schema }>;

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Content };
  responses?: Record<string, { description?: string; content?: Content }>;
}

interface Document {
  info: { title: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter> };
}

export interface ReferencePage {
  slug: string;
  title: string;
  content: string;
}

export interface ReferenceApi {
  slug: 'agent-api' | 'voice-api';
  title: string;
  pages: ReferencePage[];
}

/** The interactive reference (Scalar) under the site's base: a page of its own, not one of this site's. */
export const INTERACTIVE_REFERENCE = '/api/';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const DOCUMENTS = [
  { slug: 'agent-api', title: 'Agent API', file: 'agent-api.json' },
  { slug: 'voice-api', title: 'Voice API', file: 'voice-api.json' },
] as const;

/** Text from the documents, safe in Markdown rendered by Vue: no HTML, no interpolation, no table breaks. */
function text(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\{/g, '&#123;')
    .replace(/\}/g, '&#125;')
    .replace(/\|/g, '&#124;')
    .replace(/([\\`*_[\]])/g, '\\$1')
    .replace(/\s*\n\s*/g, ' ');
}

function code(value: unknown): string {
  return `<code>${text(typeof value === 'string' ? value : JSON.stringify(value))}</code>`;
}

const refName = (ref: string): string => ref.split('/').pop() ?? ref;

export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

class Renderer {
  constructor(private readonly doc: Document) {}

  resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let hops = 0; s.$ref && hops < 10; hops++) s = this.doc.components?.schemas?.[refName(s.$ref)] ?? {};
    return s;
  }

  parameter(p: Parameter): Parameter {
    return p.$ref ? (this.doc.components?.parameters?.[refName(p.$ref)] ?? p) : p;
  }

  typeOf(schema: Schema | undefined): string {
    if (!schema) return 'any';
    if (schema.$ref) return refName(schema.$ref);
    const variants = schema.oneOf ?? schema.anyOf;
    if (variants) return variants.map((v: Schema) => this.typeOf(v)).join(' | ');
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    const named = types.map((t) => (t === 'array' ? `${this.typeOf(schema.items)}[]` : t));
    if (schema.format) named[0] = `${named[0] ?? 'string'} (${schema.format})`;
    return named.join(' | ') || 'any';
  }

  limits(schema: Schema): string {
    const s = this.resolve(schema);
    const parts: string[] = [];
    if (s.enum) parts.push(`one of ${s.enum.map(code).join(', ')}`);
    if (s.minLength !== undefined) parts.push(s.minLength === 1 ? 'not empty' : `at least ${s.minLength} characters`);
    if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} characters`);
    if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
    if (s.exclusiveMinimum !== undefined) parts.push(`> ${s.exclusiveMinimum}`);
    // Number.MAX_SAFE_INTEGER is zod's bound of every integer, not a limit of the API's.
    if (s.maximum !== undefined && s.maximum !== Number.MAX_SAFE_INTEGER) parts.push(`≤ ${s.maximum}`);
    if (s.exclusiveMaximum !== undefined) parts.push(`< ${s.exclusiveMaximum}`);
    if (s.minItems !== undefined) parts.push(`at least ${s.minItems} ${s.minItems === 1 ? 'item' : 'items'}`);
    if (s.maxItems !== undefined) parts.push(`at most ${s.maxItems} items`);
    if (s.maxProperties !== undefined) parts.push(`at most ${s.maxProperties} keys`);
    if (s.pattern && !s.format) parts.push(`matches ${code(s.pattern)}`);
    if (s.default !== undefined) parts.push(`default ${code(s.default)}`);
    const joined = parts.join('; ');
    return joined.charAt(0).toUpperCase() + joined.slice(1);
  }

  /** An object's fields as rows, nested objects and arrays of objects flattened to `a.b` and `a[].b`. */
  fieldRows(schema: Schema | undefined, prefix = '', seen: string[] = []): string[] {
    if (schema?.$ref && seen.includes(schema.$ref)) return [];
    const trail = schema?.$ref ? [...seen, schema.$ref] : seen;
    const s = this.resolve(schema);
    const rows: string[] = [];
    const objects = (s.allOf ?? [s]).map((part: Schema) => this.resolve(part));
    for (const object of objects) {
      for (const [name, property] of Object.entries<Schema>(object.properties ?? {})) {
        const path = `${prefix}${name}`;
        const description = property.description ?? this.resolve(property).description;
        const about = this.about((object.required ?? []).includes(name), description, property);
        rows.push(`| ${code(path)} | ${code(this.typeOf(property))} | ${about} |`);
        const inner = this.resolve(property);
        if (inner.properties || inner.allOf) rows.push(...this.fieldRows(property, `${path}.`, trail));
        else if (inner.type === 'array' && this.resolve(inner.items).properties)
          rows.push(...this.fieldRows(inner.items, `${path}[].`, trail));
      }
    }
    return rows;
  }

  /** A field's or parameter's cell: required or not, what it is, its limits. */
  about(required: boolean, description: string | undefined, schema: Schema): string {
    const limits = this.limits(schema);
    return [required ? '**Required.**' : '', text(description ?? ''), limits ? `<br>${limits}.` : ''].filter(Boolean).join(' ');
  }

  fields(schema: Schema | undefined): string {
    const rows = this.fieldRows(schema);
    if (rows.length === 0) return `A ${code(this.typeOf(schema))}.\n`;
    return ['| Field | Type | Description |', '|---|---|---|', ...rows, ''].join('\n');
  }

  parameters(parameters: Parameter[]): string {
    const rows = parameters.map((p) => {
      const param = this.parameter(p);
      const about = this.about(param.required ?? false, param.description ?? param.schema?.description, param.schema ?? {});
      return `| ${code(param.name)} | ${param.in} | ${code(this.typeOf(param.schema))} | ${about} |`;
    });
    return ['| Name | In | Type | Description |', '|---|---|---|---|', ...rows, ''].join('\n');
  }

  body(content: Content | undefined): { mediaType: string; schema: Schema } | undefined {
    const [mediaType, media] = Object.entries(content ?? {})[0] ?? [];
    return mediaType ? { mediaType, schema: media?.schema ?? {} } : undefined;
  }

  operation(method: string, path: string, op: Operation): string {
    const server = this.doc.servers?.[0]?.url ?? '';
    const out = [
      `## ${text(op.summary ?? op.operationId)} {#${op.operationId}}`,
      '',
      `<code class="http-operation">${method.toUpperCase()} ${text(server + path)}</code>`,
      '',
    ];
    if (op.description) out.push(text(op.description), '');
    if (op.parameters?.length) out.push('### Parameters', '', this.parameters(op.parameters));
    const request = this.body(op.requestBody?.content);
    if (request)
      out.push(
        `### Request body`,
        '',
        `${code(request.mediaType)}${op.requestBody?.required ? ', required' : ''}.`,
        '',
        this.fields(request.schema),
      );
    out.push('### Responses', '', '| Status | Description | Body |', '|---|---|---|');
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      const body = this.body(response.content);
      out.push(
        `| ${status} | ${text(response.description)} | ${body ? `${code(this.typeOf(body.schema))} (${text(body.mediaType)})` : ''} |`,
      );
    }
    out.push('');
    const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'));
    const answer = this.body(success?.[1].content);
    if (answer && this.fieldRows(answer.schema).length > 0) out.push(`### ${success![0]} response fields`, '', this.fields(answer.schema));
    return out.join('\n');
  }

  webhook(event: string, item: Record<string, Operation>): string {
    const op = item.post ?? Object.values(item)[0] ?? {};
    const out = [`## ${text(event)} {#${slugOf(event)}}`, '', text(op.summary ?? ''), ''];
    if (op.description) out.push(text(op.description), '');
    const payload = this.body(op.requestBody?.content);
    if (payload) out.push('### Payload', '', this.fields(payload.schema));
    return out.join('\n');
  }
}

function pagesOf(doc: Document): ReferencePage[] {
  const render = new Renderer(doc);
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId || op.tags?.length !== 1) throw new Error(`${method.toUpperCase()} ${path} needs an operationId and one tag`);
      const sections = byTag.get(op.tags[0]) ?? [];
      sections.push(render.operation(method, path, op));
      byTag.set(op.tags[0], sections);
    }
  }
  const link = `<a href="/docs${INTERACTIVE_REFERENCE}" target="_self">interactive reference</a>`;
  const pages = [...byTag].map(([tag, sections]) => ({
    slug: slugOf(tag),
    title: tag,
    content: [`# ${text(tag)}`, '', `${text(doc.info.title)}. Try each operation in the ${link}.`, '', ...sections].join('\n'),
  }));
  const events = Object.entries(doc.webhooks ?? {});
  if (events.length > 0) {
    if (pages.some((page) => page.slug === 'webhooks')) throw new Error('A tag named Webhooks would take the webhooks page');
    pages.push({
      slug: 'webhooks',
      title: 'Webhooks',
      content: [
        '# Webhooks',
        '',
        `${text(doc.info.title)}: the events it sends, each a signed POST to the account's events address.`,
        '',
        ...events.map(([event, item]) => render.webhook(event, item)),
      ].join('\n'),
    });
  }
  return pages;
}

export function referencePages(): ReferenceApi[] {
  return DOCUMENTS.map(({ slug, title, file }) => {
    const doc: Document = JSON.parse(readFileSync(fileURLToPath(new URL(`../../openapi/${file}`, import.meta.url)), 'utf8'));
    return { slug, title, pages: pagesOf(doc) };
  });
}

/** The dynamic routes of docs/reference/<api>/[page].md. */
export function referencePaths(api: ReferenceApi['slug']) {
  const found = referencePages().find((a) => a.slug === api)!;
  return found.pages.map((page) => ({ params: { page: page.slug, title: page.title }, content: page.content }));
}
