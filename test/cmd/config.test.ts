import { expect } from 'chai';
import pg from 'pg';
import { testDatabaseUrl } from '../support/hooks.js';
import { startSwitchboard, switchboard, type CliResult, type RunningSwitchboard } from '../support/cli.js';

function expectConfigError(r: CliResult, variable: string): void {
  expect(r.code, r.stderr).to.equal(1);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).to.have.length(1);
  expect(lines[0]).to.match(new RegExp(`^invalid configuration: ${variable}: `));
}

/** A database on the test server that no migration has touched. */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = new URL(testDatabaseUrl());
  server.pathname = '/postgres';
  const name = `switchboard_cli_${process.pid}_${Date.now()}`;
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => query(`drop database if exists ${name} with (force)`) };
}

describe('switchboard configuration', function () {
  // Each test spawns the CLI, a full node start; on a busy machine that takes seconds.
  this.timeout(120_000);
  it('api exits 1 with one line naming the variable when PORT, SWITCHBOARD_ENCRYPTION_KEY, SWITCHBOARD_PUBLIC_URL or SWITCHBOARD_TRUSTED_PROXIES is invalid', async () => {
    const [port, key, publicUrl, proxies] = await Promise.all([
      switchboard(['api'], { PORT: 'abc' }),
      switchboard(['api'], { SWITCHBOARD_ENCRYPTION_KEY: 'short' }),
      switchboard(['api'], { SWITCHBOARD_PUBLIC_URL: 'ftp://voice.example.test' }),
      switchboard(['api'], { SWITCHBOARD_TRUSTED_PROXIES: '10.0.0.0/8, 10.1.2.3/33' }),
    ]);
    expectConfigError(port, 'PORT');
    expectConfigError(key, 'SWITCHBOARD_ENCRYPTION_KEY');
    expectConfigError(publicUrl, 'SWITCHBOARD_PUBLIC_URL');
    expectConfigError(proxies, 'SWITCHBOARD_TRUSTED_PROXIES');
  });

  it('api exits 1 naming the single sign-on variable that is missing or not https', async () => {
    const issuer = 'https://sso.example.com';
    const [noClient, noSecret, onlySecret, http] = await Promise.all([
      switchboard(['api'], { SWITCHBOARD_OIDC_ISSUER: issuer, SWITCHBOARD_OIDC_CLIENT_SECRET: 'secret' }),
      switchboard(['api'], { SWITCHBOARD_OIDC_ISSUER: issuer, SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard' }),
      switchboard(['api'], { SWITCHBOARD_OIDC_CLIENT_SECRET: 'secret' }),
      switchboard(['api'], {
        SWITCHBOARD_OIDC_ISSUER: 'http://sso.example.com',
        SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard',
        SWITCHBOARD_OIDC_CLIENT_SECRET: 'secret',
      }),
    ]);
    expectConfigError(noClient, 'SWITCHBOARD_OIDC_CLIENT_ID');
    expectConfigError(noSecret, 'SWITCHBOARD_OIDC_CLIENT_SECRET');
    expectConfigError(onlySecret, 'SWITCHBOARD_OIDC_ISSUER');
    expectConfigError(http, 'SWITCHBOARD_OIDC_ISSUER');
  });

  it('migrate exits 1 naming DATABASE_URL when it is unset', async () => {
    expectConfigError(await switchboard(['migrate'], { DATABASE_URL: '' }), 'DATABASE_URL');
  });
});

describe('switchboard api and migrate on a fresh database', function () {
  this.timeout(120_000);
  let database: { url: string; drop(): Promise<void> };
  let api: RunningSwitchboard;
  before(async () => {
    database = await emptyDatabase();
    api = await startSwitchboard(['api'], { DATABASE_URL: database.url });
  });
  after(async () => {
    if (api?.child.exitCode === null) {
      api.child.kill('SIGKILL');
      await api.exited;
    }
    await database?.drop();
  });

  it('answers /healthz, and /readyz 503 while the schema is not migrated', async () => {
    const health = await fetch(`${api.url}/healthz`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.equal({ status: 'ok' });
    expect((await fetch(`${api.url}/readyz`)).status).to.equal(503);
  });

  it('migrate applies the migrations, after which /readyz answers 200', async () => {
    const migrated = await switchboard(['migrate'], { DATABASE_URL: database.url });

    expect(migrated.code, migrated.stderr).to.equal(0);
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).to.equal(200);
    expect(await ready.json()).to.deep.equal({ status: 'ready' });
  });

  it('exits 0 on SIGTERM', async () => {
    api.child.kill('SIGTERM');

    expect(await api.exited).to.equal(0);
  });
});
