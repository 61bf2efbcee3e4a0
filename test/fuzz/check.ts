// What every answer must be: never a 5xx; a refusal in its API's own error shape (the Agent API's
// `{error}`, the Voice API's `{error: {code, message}}`, JSON-RPC errors at /mcp); a success matching
// the served document's schema for that status and media type (ajv, JSON Schema 2020-12).
import { errorsOf, schemaValidator } from '../support/document-schemas.js';
import type { FuzzRequest, McpTool } from './cases.js';

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

const jsonOf = (text: string): { ok: true; value: any } | { ok: false; value?: undefined } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

/** The `data:` payloads of an event stream. */
const eventsOf = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trim());

/** The Voice API's codes for the statuses whose code the spec names alone. */
const VOICE_CODES: Record<number, string[]> = {
  401: ['unauthorized'],
  404: ['not_found'],
  413: ['body_too_large'],
  429: ['rate_limited', 'tenant_busy'],
};

const isRpcError = (e: any): boolean => !!e && typeof e === 'object' && Number.isInteger(e.code) && typeof e.message === 'string';

function rpcProblems(m: any): string[] {
  if (!m || typeof m !== 'object' || m.jsonrpc !== '2.0') return ['not a JSON-RPC 2.0 response'];
  if ('result' in m === 'error' in m) return ['a JSON-RPC response has exactly one of result and error'];
  if ('error' in m && !isRpcError(m.error)) return ['JSON-RPC error without an integer code and a message'];
  return [];
}

/** Whether the request sent only what the operation documents (no body or query it does not take): then its status must be documented. */
function withinDocument(req: FuzzRequest, op: any): boolean {
  // Another method, or headers the document does not describe (Content-Encoding, Switchboard-App).
  if (req.kind === 'wrong-method' || req.kind === 'header-odd') return false;
  if (!op.requestBody && ((req.body && req.body.length > 2) || req.kind.startsWith('body-'))) return false;
  return !req.path.includes('?') || (op.parameters ?? []).some((p: any) => p.in === 'query');
}

export function answerChecker(docs: { agent: any; voice: any }, tools: McpTool[]) {
  const validators = { agent: schemaValidator(docs.agent), voice: schemaValidator(docs.voice), mcp: schemaValidator({}) };
  const errorSchema = { agent: { $ref: '#/components/schemas/Error' }, voice: { $ref: '#/components/schemas/VoiceError' } };
  const operations = new Map<string, any>();
  for (const [api, prefix] of [
    ['agent', '/api/v1'],
    ['voice', '/v1'],
  ] as const) {
    for (const [template, ops] of Object.entries(docs[api].paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) operations.set(`${method.toUpperCase()} ${prefix}${template}`, op);
    }
  }
  const toolsByName = new Map(tools.map((t) => [t.name, t]));

  function documented(req: FuzzRequest, a: Answer): string[] {
    const api = req.api as 'agent' | 'voice';
    const json = jsonOf(a.text);
    if (a.status >= 400) {
      if (!json.ok) return [`${a.status} body is not JSON`];
      const validate = validators[api](errorSchema[api]);
      const body: any = json.value;
      if (!validate(body)) return [`${a.status} not in the ${api} API's error shape: ${errorsOf(validate)}`];
      const codes = api === 'voice' ? VOICE_CODES[a.status] : undefined;
      const code: string = json.value.error.code;
      if (codes && !codes.includes(code)) return [`${a.status} with code ${code}, not ${codes.join(' or ')}`];
      const op = operations.get(req.endpoint);
      if (op && withinDocument(req, op) && !op.responses[String(a.status)])
        return [`${a.status} is not among the statuses the document gives this operation`];
      return [];
    }
    if (a.status < 200 || a.status >= 300) return [`unexpected status ${a.status}`];
    const response = operations.get(req.endpoint)?.responses?.[String(a.status)];
    if (!response) return [`success ${a.status} the document does not give this operation (${req.method})`];
    const media = a.contentType.split(';')[0]!.trim();
    const schema = response.content?.[media]?.schema;
    if (!schema)
      return [
        `success as ${media || 'no media type'}, which the document does not give (${Object.keys(response.content ?? {}).join(', ')})`,
      ];
    if (media === 'application/json') {
      if (!json.ok) return ['success body is not JSON'];
      const validate = validators[api](schema);
      return validate(json.value) ? [] : [`success body does not match the document: ${errorsOf(validate)}`];
    }
    if (media === 'text/event-stream') {
      const validate = validators[api](schema);
      for (const data of eventsOf(a.text)) {
        const event = jsonOf(data);
        if (!event.ok || !validate(event.value))
          return [`stream event does not match the document: ${event.ok ? errorsOf(validate) : 'not JSON'}`];
      }
    }
    return [];
  }

  function mcp(req: FuzzRequest, a: Answer): string[] {
    const json = jsonOf(a.text);
    if (a.status >= 400) {
      if (!json.ok) return [`${a.status} body is not JSON`];
      const rpcError = json.value?.jsonrpc === '2.0' && isRpcError(json.value.error);
      // Refusals before any JSON-RPC is read (the key, the feature, the size, the rate) answer as the Voice API does.
      const voiceRefusal = [401, 403, 413, 429].includes(a.status) && validators.voice(errorSchema.voice)(json.value);
      return rpcError || voiceRefusal ? [] : [`${a.status} is neither a JSON-RPC error nor a Voice API refusal: ${a.text.slice(0, 120)}`];
    }
    if (a.status === 202) return a.text ? ['202 with a body'] : [];
    if (a.status !== 200) return [`unexpected status ${a.status}`];
    if (!json.ok) return ['200 body is not JSON'];
    const messages = Array.isArray(json.value) ? json.value : [json.value];
    const problems = messages.flatMap(rpcProblems);
    if (problems.length) return problems;
    const sent = jsonOf(req.body?.toString('utf8') ?? '');
    const tool = sent.ok && sent.value?.method === 'tools/call' ? toolsByName.get(sent.value.params?.name) : undefined;
    const result = messages[0]?.result;
    if (!tool || !result) return [];
    if (!Array.isArray(result.content)) return ['tool result without content'];
    if (result.isError) {
      if (typeof result.content[0]?.text !== 'string') return ['tool error without a text'];
      const error = result.structuredContent?.error;
      if (!error || typeof error.code !== 'string' || typeof error.message !== 'string')
        return ['tool error without structuredContent.error {code, message}'];
      return [];
    }
    if (req.toolMustFail) return ["the tool succeeded with another account's id"];
    if (tool.outputSchema) {
      const validate = validators.mcp(tool.outputSchema);
      if (!validate(result.structuredContent)) return [`tool result does not match its outputSchema: ${errorsOf(validate)}`];
    }
    return [];
  }

  return (req: FuzzRequest, a: Answer): string[] => {
    const problems: string[] = [];
    if (a.status >= 500) problems.push(`server error ${a.status}`);
    if (req.expect && !req.expect.includes(a.status)) problems.push(`expected ${req.expect.join(' or ')}`);
    if (req.forbid?.(a.status)) problems.push(`${a.status} to a ${req.kind}`);
    problems.push(...(req.api === 'mcp' ? mcp(req, a) : documented(req, a)));
    return problems;
  };
}
