// The repository's root, from the built test files (dist/test/support/root.js).
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
