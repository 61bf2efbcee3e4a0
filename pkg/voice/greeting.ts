// A greeting filled from the call's facts: `{{context.x}}` (or `{{context.a.b}}`) becomes the value;
// a missing value renders empty (DECISIONS.md).
const PLACEHOLDER = /\{\{\s*context\.([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

export function fillGreeting(template: string, context: Record<string, unknown>): string {
  return template
    .replace(PLACEHOLDER, (_, path: string) => {
      const value = path
        .split('.')
        .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), context);
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
    })
    .replace(/\s+([,.!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
