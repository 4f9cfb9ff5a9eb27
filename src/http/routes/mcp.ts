import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../../mcp/server.js';
import { callThrough, toolsFrom, TOOL_SPECS, type OpenApiDocument, type Tool } from '../../mcp/tools.js';
import { ApiError } from '../errors.js';
import { commonErrors, errorResponse } from '../schemas.js';

const isMessage = (m: unknown) => typeof m === 'object' && m !== null && !Array.isArray(m) && (m as { jsonrpc?: unknown }).jsonrpc === '2.0';
const isJsonRpc = (body: unknown) => (Array.isArray(body) ? body.length > 0 && body.every(isMessage) : isMessage(body));

/**
 * POST /mcp (EXTENSIONS "touchline mcp"): the Model Context Protocol over Streamable HTTP, stateless
 * (each POST a fresh server, JSON answers). The POST itself is not counted; each tool call is a
 * request of the API with the caller's own key, so its plan, coverage and rate limit hold.
 */
export function mcpRoute(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  let tools: Tool[] | null = null;

  r.post('/mcp', {
    config: { unmetered: true },
    schema: {
      tags: ['integrations'],
      summary: 'Model Context Protocol (Streamable HTTP): the models as tools for AI assistants',
      description: `JSON-RPC 2.0 messages of the Model Context Protocol. Tools: ${TOOL_SPECS.map((t) => `\`${t.name}\``).join(', ')}, each with its endpoint's input schema; a tool call answers what the endpoint answers and counts against the key's rate limit as that request would. Send \`Accept: application/json, text/event-stream\`.`,
      body: z.unknown().describe('A JSON-RPC 2.0 message (or a batch) of the Model Context Protocol'),
      response: {
        200: z.unknown().describe('The JSON-RPC answer'),
        ...commonErrors,
        400: errorResponse.describe('`Body must be a JSON-RPC 2.0 message`'),
        406: errorResponse.describe('`Accept must include application/json and text/event-stream`'),
      },
    },
  }, async (req, reply) => {
    // what the transport would refuse in JSON-RPC's own words is refused here in the API's
    const accept = String(req.headers.accept ?? '');
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) throw new ApiError(406, 'Accept must include application/json and text/event-stream');
    if (!isJsonRpc(req.body)) throw new ApiError(400, 'Body must be a JSON-RPC 2.0 message');
    tools ??= toolsFrom(app.swagger() as OpenApiDocument);
    const headers: Record<string, string> = {};
    for (const h of ['x-api-key', 'authorization'] as const) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const server = createMcpServer(tools, callThrough(app, headers));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
}
