// Custom resource types registered from CustomResourceDefinition YAML, one per served version, with
// the strategy of apiextensions-apiserver's customresource registry.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { Obj } from './errors.js';
import { metadataFields, type ResourceType } from './resources.js';
import type { Schema } from './schema.js';
import { jsonPathColumn } from './table.js';

const VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
// What the apiextensions server shows when a version declares no printer columns.
const DEFAULT_COLUMNS = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

export function readCrds(files: string[]): Obj[] {
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(file, 'utf8'))
      .map((document) => {
        if (document.errors.length) throw new Error(`${file}: ${document.errors[0].message}`);
        return document.toJS() as Obj | null;
      })
      .filter((document): document is Obj => document?.kind === 'CustomResourceDefinition'),
  );
}

export function crdTypes(crd: Obj): ResourceType[] {
  const { group, names, scope } = crd.spec;
  return (crd.spec.versions as Obj[])
    .filter((version) => version.served)
    .map((version) => ({
      group,
      version: version.name,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      namespaced: scope === 'Namespaced',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      verbs: VERBS,
      storage: `${group}/${names.plural}`,
      statusSubresource: version.subresources?.status !== undefined,
      columns: (version.additionalPrinterColumns ?? DEFAULT_COLUMNS).map(jsonPathColumn),
      tracksGeneration: true,
      allowUnconditionalUpdate: false,
      allowCreateOnUpdate: false,
      returnDeletedObject: true,
      unstructured: true,
      nameRule: 'subdomain',
      selectableFields: metadataFields,
      schema: version.schema?.openAPIV3Schema as Schema | undefined,
    }));
}
