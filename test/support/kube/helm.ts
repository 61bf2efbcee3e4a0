// The real helm (built by tools.sh) on charts/switchboard: `helm template` parsed into objects.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { ROOT } from '../root.js';
import { kubeTool } from './tools.js';

export const CHART_DIR = join(ROOT, 'charts/switchboard');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: any;
}

export interface Rendered {
  /** Every document, parsed, with the template it came from. */
  objects: (K8sObject & { source: string })[];
  /** The documents as helm printed them. */
  manifest: string;
}

interface HelmResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `helm <args>` to its end, with no user configuration or repositories of the machine's, and no cluster unless given one. */
export function helm(args: string[], { kubeconfig = '/dev/null', timeoutMs = 60_000 } = {}): Promise<HelmResult> {
  const home = join(tmpdir(), 'switchboard-helm');
  const env = {
    ...process.env,
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_DATA_HOME: join(home, 'data'),
    KUBECONFIG: kubeconfig,
  };
  return new Promise((resolve) => {
    execFile(kubeTool('helm'), args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

interface TemplateOptions {
  release?: string;
  namespace?: string;
  valueFiles?: string[];
  /** Values given as one more values file, after `valueFiles`. */
  values?: object;
}

/** `helm template <release> charts/switchboard -n <namespace> -f …`; rejects with helm's error. */
export async function helmTemplate(opts: TemplateOptions = {}): Promise<Rendered> {
  const scratch = mkdtempSync(join(tmpdir(), 'chart-values-'));
  try {
    const files = [...(opts.valueFiles ?? [])];
    if (opts.values) {
      files.push(join(scratch, 'values.yaml'));
      writeFileSync(files.at(-1)!, YAML.stringify(opts.values));
    }
    const args = [
      'template',
      opts.release ?? 'switchboard',
      CHART_DIR,
      '--namespace',
      opts.namespace ?? 'switchboard',
      ...files.flatMap((file) => ['-f', file]),
    ];
    const result = await helm(args);
    if (result.code !== 0) throw new Error(result.stderr || `helm ${args.join(' ')} exited ${result.code}`);
    return { objects: parse(result.stdout), manifest: result.stdout };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function parse(stdout: string): Rendered['objects'] {
  return stdout
    .split(/^---\n/m)
    .filter((doc) => doc.trim() !== '')
    .map((doc) => {
      const source = /^# Source: (.+)$/m.exec(doc)?.[1];
      if (!source) throw new Error(`a document without a "# Source:" line:\n${doc}`);
      const parsed = YAML.parseDocument(doc, { uniqueKeys: true });
      if (parsed.errors.length) throw new Error(`${source} is not YAML: ${parsed.errors[0]!.message}`);
      return { ...(parsed.toJS() as K8sObject), source };
    });
}
