import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../repo.js';
import { runTool, ToolCallError, type ApiCall, type Tool } from './tools.js';

/**
 * An MCP server over the tools: a list with the endpoints' own input schemas, and calls that go
 * through `call` (the API with the caller's key, so plan, coverage and rate limit hold). The SDK's
 * low-level Server, because the schemas are JSON Schema from the OpenAPI document, not zod.
 */
export function createMcpServer(tools: readonly Tool[], call: ApiCall): Server {
  const server = new Server(
    { name: 'touchline', version: VERSION },
    { capabilities: { tools: {} }, instructions: 'Football player valuation and squad analysis. Find ids with `search` first; money is in EUR unless a currency is given.' },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((t) => ({ ...t })) }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    try {
      const result = await runTool(req.params.name, args, call);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> };
    } catch (err) {
      if (!(err instanceof ToolCallError)) throw err;
      // an API refusal is the tool's answer (the assistant reads it and corrects its call), not a protocol error
      return { isError: true, content: [{ type: 'text', text: `${err.status}: ${err.message}` }] };
    }
  });
  return server;
}
