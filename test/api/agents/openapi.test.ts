import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp } from '../../../api/server.js';
import { startTestApp, type TestApp } from '../../support/app.js';

const CLI = fileURLToPath(new URL('../../../cmd/switchboard.js', import.meta.url));
const CHECKED_IN = fileURLToPath(new URL('../../../../openapi/agent-api.json', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string;
}

/** Every `METHOD /path` the express app routes, found by walking its (nested) routers. */
function mountedRoutes(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) return Object.keys(layer.route.methods).map((m) => `${m.toUpperCase()} ${prefix}${layer.route!.path}`);
    if (layer.handle.stack) return mountedRoutes(layer.handle.stack, layer.rawPath && layer.rawPath !== '/' ? prefix + layer.rawPath : prefix);
    return [];
  });
}

/** Every `METHOD /path` the document describes, with `{param}` written the express way. */
function documentedRoutes(doc: any): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => METHODS.includes(k))
      .map((m) => `${m.toUpperCase()} /api/v1${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

describe('GET /api/v1/openapi.json', () => {
  let app: TestApp;
  let doc: any;
  before(async () => {
    app = await startTestApp();
    const res = await app.client().get('/api/v1/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body;
  });
  after(async () => app.close());

  it('serves a valid OpenAPI 3.1 document without an API key', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it('documents every route mounted under /api/v1, with its method', () => {
    const express = createApp(app.runtime.ctx, { limits: app.runtime.limits });
    const mounted = mountedRoutes(express.router.stack as unknown as Layer[]).filter((r) => r.split(' ')[1]!.startsWith('/api/v1/'));
    expect(mounted).to.include('POST /api/v1/conversations/:conversationId/messages');
    expect(documentedRoutes(doc)).to.have.members(mounted);
  });

  it('declares each path parameter on every operation of its path', () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const method of Object.keys(item).filter((k) => METHODS.includes(k))) {
        const declared = (item[method].parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        expect(declared, `${method.toUpperCase()} ${path}`).to.have.members(names);
      }
    }
  });

  it('is the document `switchboard openapi` prints (make openapi)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'openapi']);
    expect(JSON.parse(stdout)).to.deep.equal(doc);
  });

  it('matches the checked-in openapi/agent-api.json (regenerate with make openapi)', () => {
    expect(JSON.parse(readFileSync(CHECKED_IN, 'utf8')), 'openapi/agent-api.json is stale: run make openapi').to.deep.equal(doc);
  });
});
