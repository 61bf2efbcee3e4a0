// The checks every surface's OpenAPI document gets: valid 3.1, every mounted route documented,
// path parameters declared, the CLI prints it, and the checked-in copy is current.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp } from '../../api/server.js';
import { startTestApp, type TestApp } from './app.js';
import { documentedRoutes, mountedRoutes, undeclaredPathParams } from './routes.js';

const CLI = fileURLToPath(new URL('../../cmd/switchboard.js', import.meta.url));

export interface Surface {
  /** Where the API is mounted, e.g. `/api/v1`. */
  prefix: string;
  /** Arguments of `switchboard` that print the document. */
  cli: string[];
  /** The checked-in copy, relative to the repository, e.g. `openapi/agent-api.json`. */
  file: string;
  /** Routes that must be among those mounted (guards against an empty walk). */
  mounted: string[];
}

/** Declares the shared checks inside the caller's describe; returns the served document's getter. */
export function checksOfOpenApiDocument(surface: Surface): () => any {
  let app: TestApp;
  let doc: any;
  before(async () => {
    app = await startTestApp();
    const res = await app.client().get(`${surface.prefix}/openapi.json`);
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

  it(`documents every route mounted under ${surface.prefix}, with its method`, () => {
    const express = createApp(app.runtime.ctx, { limits: app.runtime.limits });
    const mounted = mountedRoutes(express.router.stack).filter((r) => r.split(' ')[1]!.startsWith(`${surface.prefix}/`));
    expect(mounted).to.include.members(surface.mounted);
    expect(documentedRoutes(doc, surface.prefix)).to.have.members(mounted);
  });

  it('declares each path parameter on every operation of its path', () => {
    expect(undeclaredPathParams(doc)).to.deep.equal([]);
  });

  it('names every operation once (operationId) and files it under one tag, as generated clients need', () => {
    const operations = Object.values<any>(doc.paths).flatMap((path) => Object.values<any>(path));
    const ids = operations.map((o) => o.operationId);
    expect(ids.filter((id) => typeof id !== 'string' || !/^[a-z][A-Za-z]+$/.test(id))).to.deep.equal([]);
    expect(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      'repeated operationIds',
    ).to.deep.equal([]);
    expect(operations.filter((o) => o.tags?.length !== 1).map((o) => o.operationId)).to.deep.equal([]);
  });

  it(`is the document \`switchboard ${surface.cli.join(' ')}\` prints (make openapi)`, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...surface.cli]);
    expect(JSON.parse(stdout)).to.deep.equal(doc);
  });

  it(`matches the checked-in ${surface.file} (regenerate with make openapi)`, () => {
    const file = fileURLToPath(new URL(`../../../${surface.file}`, import.meta.url));
    expect(JSON.parse(readFileSync(file, 'utf8')), `${surface.file} is stale: run make openapi`).to.deep.equal(doc);
  });

  return () => doc;
}
