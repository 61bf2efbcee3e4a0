// labelSelector and fieldSelector query parameters, with the grammar of k8s.io/apimachinery's
// labels.Parse (=, ==, !=, in, notin, exists, !exists, gt, lt) and fields.ParseSelector (=, ==, !=).
import { statusError, type Obj } from './errors.js';
import type { ResourceType } from './resources.js';

export type Matcher = (object: Obj) => boolean;

interface LabelRequirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';
  values: string[];
}

/** Splits on commas outside parentheses. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      terms.push(current);
      current = '';
    } else current += char;
  }
  terms.push(current);
  return terms.map((term) => term.trim()).filter(Boolean);
}

function parseLabelTerm(term: string): LabelRequirement {
  let match = /^!\s*([^\s=!<>(),]+)$/.exec(term);
  if (match) return { key: match[1], op: '!', values: [] };
  match = /^([^\s=!<>(),]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
  if (match) return { key: match[1], op: match[2] as 'in' | 'notin', values: match[3].split(',').map((v) => v.trim()) };
  match = /^([^\s=!<>(),]+)\s*(==|=|!=|>|<)\s*([^\s=!<>(),]*)$/.exec(term);
  if (match) {
    const [, key, op, value] = match;
    if (op === '>' || op === '<') return { key, op: op === '>' ? 'gt' : 'lt', values: [value] };
    return { key, op: op === '!=' ? 'notin' : 'in', values: [value] };
  }
  match = /^([^\s=!<>(),]+)$/.exec(term);
  if (match) return { key: match[1], op: 'exists', values: [] };
  throw statusError.badRequest(`unable to parse requirement: found '${term}', expected: in, notin, =, ==, !=, gt, lt`);
}

function matchesLabel(requirement: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, requirement.key);
  const value = labels[requirement.key];
  switch (requirement.op) {
    case 'in':
      return has && requirement.values.includes(value);
    case 'notin':
      return !has || !requirement.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      const [actual, bound] = [Number(value), Number(requirement.values[0])];
      if (!has || !Number.isInteger(actual)) return false;
      return requirement.op === 'gt' ? actual > bound : actual < bound;
    }
  }
}

export function labelMatcher(selector: string | null): Matcher {
  if (!selector) return () => true;
  const requirements = splitTerms(selector).map(parseLabelTerm);
  return (object) => requirements.every((requirement) => matchesLabel(requirement, object.metadata?.labels ?? {}));
}

export function fieldMatcher(type: ResourceType, selector: string | null): Matcher {
  if (!selector) return () => true;
  const terms = splitTerms(selector).map((term) => {
    const match = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!match) throw statusError.badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
    return { field: match[1], equal: match[2] !== '!=', value: match[3] };
  });
  const supported = Object.keys(type.selectableFields({ metadata: {} }));
  for (const { field } of terms) if (!supported.includes(field)) throw statusError.badRequest(`field label not supported: ${field}`);
  return (object) => {
    const fields = type.selectableFields(object);
    return terms.every(({ field, equal, value }) => (fields[field] === value) === equal);
  };
}
