// One page per tag of openapi/agent-api.json, generated at build time (docs/.vitepress/reference.ts).
import { referencePaths } from '../../.vitepress/reference.js';

export default { paths: () => referencePaths('agent-api') };
