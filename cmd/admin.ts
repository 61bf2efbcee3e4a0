// placeholder: replaced by the admin CLI
import type { Ctx } from '../pkg/context.js';
export async function runAdmin(_ctx: Ctx, _args: string[]): Promise<number> {
  return 2;
}
