// One MCP tool as the server's table holds it (api/mcp/tools.ts lists and calls them).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** A tool: what tools/list says of it, and its handler, given the arguments its input schema gave. */
export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  description: string;
  inputSchema: S;
  annotations?: Tool['annotations'];
  handler(args: z.output<S>): Promise<Record<string, unknown>>;
}

/** `tool` with its handler's argument types taken from its input schema. */
export const mcpTool = <S extends z.ZodObject>(tool: McpTool<S>): McpTool => tool as unknown as McpTool;
