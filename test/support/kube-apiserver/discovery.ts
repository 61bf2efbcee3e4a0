// Legacy discovery documents: /version, /api, /apis, /apis/<group>, /api/v1 and /apis/<group>/<version>.
// Requests for aggregated discovery (Accept ...;as=APIGroupDiscoveryList) get these too, with a plain
// application/json Content-Type, which tells client-go to fall back to per-group requests.
import type { Obj } from './errors.js';
import type { ResourceType } from './resources.js';

export const VERSION_INFO = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: '70d3cc986aa8221cd1dfb1121852688902d3bf53',
  gitTreeState: 'clean',
  buildDate: '2024-12-11T17:59:15Z',
  goVersion: 'go1.23.3',
  compiler: 'gc',
  platform: 'linux/amd64',
};

function groupVersion(type: { group: string; version: string }): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

function apiResources(type: ResourceType): Obj[] {
  const main: Obj = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length ? { categories: type.categories } : {}),
  };
  if (!type.statusSubresource) return [main];
  return [main, { name: `${type.plural}/status`, singularName: '', namespaced: type.namespaced, kind: type.kind, verbs: ['get', 'patch', 'update'] }];
}

export class Discovery {
  constructor(
    private readonly types: ResourceType[],
    private readonly serverAddress: () => string,
  ) {}

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.find((type) => type.group === group && type.version === version && type.plural === plural);
  }

  /** Groups (core excluded) in registration order, each with its versions. */
  private groups(): Obj[] {
    const names = [...new Set(this.types.filter((type) => type.group).map((type) => type.group))];
    return names.map((name) => {
      const versions = [...new Set(this.types.filter((type) => type.group === name).map((type) => type.version))].map((version) => ({
        groupVersion: `${name}/${version}`,
        version,
      }));
      return { name, versions, preferredVersion: versions[0] };
    });
  }

  /** The discovery document at `path`, or undefined when the path is not a discovery path. */
  document(path: string): Obj | undefined {
    if (path === '/version') return VERSION_INFO;
    if (path === '/api') {
      return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: this.serverAddress() }] };
    }
    if (path === '/apis') return { kind: 'APIGroupList', apiVersion: 'v1', groups: this.groups() };
    const group = /^\/apis\/([^/]+)$/.exec(path);
    if (group) {
      const found = this.groups().find((candidate) => candidate.name === group[1]);
      return found && { kind: 'APIGroup', apiVersion: 'v1', ...found };
    }
    const list = /^\/api\/(v1)$|^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
    if (!list) return undefined;
    const [name, version] = list[1] ? ['', 'v1'] : [list[2], list[3]];
    const types = this.types.filter((type) => type.group === name && type.version === version);
    if (types.length === 0) return undefined;
    return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion({ group: name, version }), resources: types.flatMap(apiResources) };
  }
}
