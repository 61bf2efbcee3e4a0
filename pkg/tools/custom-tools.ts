// Custom HTTP tools: the shape, its limits, storage with sealed credentials, and merging by name.
import { z } from 'zod';
import { Invalid, Unavailable } from '../errors.js';
import type { StoredTool } from '../store/tools.js';
import type { SecretBox } from './secrets.js';

const MAX_STORED_TOOLS = 10;

const toolParameterSchema = z
  .object({
    name: z.string().min(1).max(64),
    type: z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array']).default('string'),
    required: z.boolean().default(false),
    description: z.string().max(512).optional(),
  })
  .strict();

const authConfigSchema = z.union([
  z.object({ username: z.string().min(1), password: z.string() }).strict(),
  z
    .object({
      headerName: z
        .string()
        .min(1)
        .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/),
      apiKey: z.string().min(1),
    })
    .strict(),
  z.object({ token: z.string().min(1) }).strict(),
]);

export const customToolSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(20)
      .regex(/^[a-zA-Z0-9_-]+$/, 'may contain only letters, digits, _ and -'),
    description: z.string().min(1).max(1024),
    url: z
      .string()
      .url()
      .refine((u) => u.startsWith('https://'), 'must be an https:// URL'),
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
    authType: z.enum(['none', 'basic', 'apikey', 'bearer']).default('none'),
    authConfig: authConfigSchema.optional(),
    parameters: z.array(toolParameterSchema).max(20).default([]),
  })
  .strict()
  .superRefine((tool, ctx) => {
    const expected = { none: null, basic: 'username', apikey: 'headerName', bearer: 'token' }[tool.authType];
    if (expected && !(tool.authConfig && expected in tool.authConfig)) {
      ctx.addIssue({ code: 'custom', path: ['authConfig'], message: `authType ${tool.authType} needs authConfig.${expected}` });
    }
    const names = new Set(tool.parameters.map((p) => p.name));
    for (const placeholder of tool.url.matchAll(/\{([^}]+)\}/g)) {
      if (!names.has(placeholder[1]!)) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: `placeholder {${placeholder[1]}} has no parameter of that name` });
      }
    }
  })
  .meta({ id: 'CustomTool' });

export type CustomTool = z.output<typeof customToolSchema>;
export type AuthConfig = z.output<typeof authConfigSchema>;

export function sealTools(tools: CustomTool[], box: SecretBox | null): StoredTool[] {
  return tools.map(({ authConfig, ...rest }) => {
    if (rest.authType === 'none' || authConfig === undefined) return rest;
    if (!box) {
      throw new Unavailable('Authenticated custom tools need the credentials encryption key (SWITCHBOARD_ENCRYPTION_KEY)');
    }
    return { ...rest, sealedAuth: box.seal(authConfig) };
  });
}

export function openAuth(tool: StoredTool, box: SecretBox | null): AuthConfig | undefined {
  if (tool.authType === 'none' || !tool.sealedAuth) return undefined;
  if (!box) {
    throw new Unavailable('Authenticated custom tools need the credentials encryption key (SWITCHBOARD_ENCRYPTION_KEY)');
  }
  return box.open<AuthConfig>(tool.sealedAuth);
}

/** Merge by name, incoming wins; more than MAX_STORED_TOOLS after the merge is refused. */
export function mergeTools(stored: StoredTool[], incoming: StoredTool[]): StoredTool[] {
  const byName = new Map(stored.map((t) => [t.name, t]));
  for (const tool of incoming) byName.set(tool.name, tool);
  const merged = [...byName.values()];
  if (merged.length > MAX_STORED_TOOLS) {
    throw new Invalid(`At most ${MAX_STORED_TOOLS} custom tools may be stored on a conversation (${merged.length} after merge)`, [
      { path: 'customTools', message: `${merged.length} tools after merge; the limit is ${MAX_STORED_TOOLS}` },
    ]);
  }
  return merged;
}

/** The public view of a stored tool: no credentials, sealed or not. */
export const publicTool = ({ sealedAuth: _sealed, ...rest }: StoredTool): Omit<StoredTool, 'sealedAuth'> => rest;
