// A custom HTTP tool as stored on an agent or a conversation (jsonb): checked, and its credentials
// sealed, by pkg/tools/custom-tools.ts before it is written.
export interface StoredTool {
  name: string;
  description: string;
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  authType: 'none' | 'basic' | 'apikey' | 'bearer';
  parameters: {
    name: string;
    type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
    required: boolean;
    description?: string;
  }[];
  /** Its credentials, sealed: never in clear. */
  sealedAuth?: string;
}
