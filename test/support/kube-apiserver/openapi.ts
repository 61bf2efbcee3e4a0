// Just enough OpenAPI v3 for kubectl's create/apply: it looks up, per group-version, the PATCH
// operation of the object's kind and checks that it takes the fieldValidation query parameter; when
// it does, kubectl leaves validation to the server instead of downloading schemas. No schemas are
// published, so `kubectl explain` is not supported.
import { createHash } from 'node:crypto';
import type { Obj } from './errors.js';
import type { ResourceType } from './resources.js';
import { VERSION_INFO } from './discovery.js';

const relativePath = (type: ResourceType) => (type.group ? `apis/${type.group}/${type.version}` : 'api/v1');

function groupVersionDocument(types: ResourceType[]): Obj {
  const paths: Obj = {};
  for (const type of types) {
    const collection = `/${relativePath(type)}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.plural}`;
    paths[`${collection}/{name}`] = {
      patch: {
        operationId: `patch${type.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': { group: type.group, version: type.version, kind: type.kind },
        parameters: ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map((name) => ({ name, in: 'query', schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true } })),
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: VERSION_INFO.gitVersion }, paths, components: { schemas: {} } };
}

/** The document at `path` (/openapi/v3 or /openapi/v3/<api|apis/group/version>), or undefined. */
export function openApiDocument(types: ResourceType[], path: string): Obj | undefined {
  const byGroupVersion = new Map<string, ResourceType[]>();
  for (const type of types) byGroupVersion.set(relativePath(type), [...(byGroupVersion.get(relativePath(type)) ?? []), type]);
  if (path === '/openapi/v3') {
    const entries = [...byGroupVersion].map(([relative, members]) => {
      const hash = createHash('sha256').update(JSON.stringify(groupVersionDocument(members))).digest('hex').slice(0, 32).toUpperCase();
      return [relative, { serverRelativeURL: `/openapi/v3/${relative}?hash=${hash}` }];
    });
    return { paths: Object.fromEntries(entries) };
  }
  const members = byGroupVersion.get(path.replace(/^\/openapi\/v3\//, ''));
  return members && groupVersionDocument(members);
}
