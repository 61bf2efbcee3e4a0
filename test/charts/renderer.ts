// Renders charts/switchboard as `helm template` would, with test/charts/render (Go text/template +
// sprig, helm's own engine), built on first use and cached under .switchboard/chart-render/.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import YAML from 'yaml';

const run = promisify(execFile);

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CHART_DIR = join(ROOT, 'charts/switchboard');
const SOURCE = join(ROOT, 'test/charts/render/main.go');
const CACHE = join(ROOT, '.switchboard/chart-render');
/** Where Debian's golang-*-dev packages put their sources (a GOPATH). */
const GOCODE = process.env.SWITCHBOARD_GOCODE ?? '/usr/share/gocode';
const PACKAGES = 'golang-go golang-github-masterminds-sprig-dev golang-k8s-sigs-yaml-dev';
// GOPATH mode has no module paths: each /vN import needs a directory of that name.
const MAJOR_VERSION_DIRS: Record<string, string> = {
  'github.com/Masterminds/sprig/v3': 'github.com/Masterminds/sprig',
  'github.com/Masterminds/semver/v3': 'github.com/Masterminds/semver',
};

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface Rendered {
  /** Every document, parsed, with the template it came from. */
  objects: (K8sObject & { source: string })[];
  notes: string;
}

let built: Promise<string> | undefined;

/** The renderer binary; fails, naming the packages, where Go or sprig is missing. */
export function buildRenderer(): Promise<string> {
  built ??= build();
  return built;
}

async function build(): Promise<string> {
  const hash = createHash('sha256').update(readFileSync(SOURCE)).digest('hex').slice(0, 16);
  const binary = join(CACHE, `chart-render-${hash}`);
  if (existsSync(binary)) return binary;
  try {
    await run('go', ['version']);
  } catch {
    throw new Error(`the chart check needs Go to build its renderer (test/charts/render): apt-get install -y ${PACKAGES} (make test does)`);
  }
  const gopath = join(CACHE, 'gopath');
  for (const [link, target] of Object.entries(MAJOR_VERSION_DIRS)) {
    const at = join(gopath, 'src', link);
    if (existsSync(at)) continue;
    mkdirSync(dirname(at), { recursive: true });
    try {
      symlinkSync(join(GOCODE, 'src', target), at);
    } catch (err) {
      // Another test process made it first.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const partial = `${binary}.${process.pid}.tmp`;
  try {
    await run('go', ['build', '-o', partial, SOURCE], {
      cwd: ROOT,
      env: {
        ...process.env,
        GO111MODULE: 'off',
        GOPATH: `${gopath}:${GOCODE}`,
        GOFLAGS: '',
        GOCACHE: join(CACHE, 'go-cache'),
        CGO_ENABLED: '0',
      },
    });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    throw new Error(`building test/charts/render failed (are ${PACKAGES} installed?):\n${stderr}`);
  }
  renameSync(partial, binary);
  return binary;
}

/** `helm template <name> charts/switchboard -n <namespace> -f <values>`; rejects with helm's error. */
export async function renderChart(opts: { name?: string; namespace?: string; valueFiles?: string[]; values?: object } = {}): Promise<Rendered> {
  const binary = await buildRenderer();
  const scratch = mkdtempSync(join(tmpdir(), 'chart-values-'));
  try {
    const files = [...(opts.valueFiles ?? [])];
    if (opts.values) {
      files.push(join(scratch, 'values.yaml'));
      writeFileSync(files.at(-1)!, YAML.stringify(opts.values));
    }
    const args = ['-name', opts.name ?? 'switchboard', '-namespace', opts.namespace ?? 'switchboard', '-notes'];
    for (const file of files) args.push('-f', file);
    let stdout: string;
    try {
      ({ stdout } = await run(binary, [...args, CHART_DIR], { maxBuffer: 64 * 1024 * 1024 }));
    } catch (err) {
      throw new Error((err as { stderr?: string }).stderr || String(err));
    }
    return parse(stdout);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function parse(stdout: string): Rendered {
  const [manifests, notes = ''] = stdout.split(/^NOTES:\n/m);
  const objects = manifests!
    .split(/^---\n/m)
    .filter((doc) => doc.trim() !== '')
    .map((doc) => {
      const source = /^# Source: (.+)$/m.exec(doc)?.[1];
      if (!source) throw new Error(`a document without a "# Source:" line:\n${doc}`);
      const parsed = YAML.parseDocument(doc, { uniqueKeys: true });
      if (parsed.errors.length) throw new Error(`${source} is not YAML: ${parsed.errors[0]!.message}`);
      return { ...(parsed.toJS() as K8sObject), source };
    });
  return { objects, notes };
}
