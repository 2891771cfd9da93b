import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { GATEWAY_CALL_TOOL_NAME, GATEWAY_FIND_TOOL_NAME } from '../../core/platform/toolNames';
import { objectSchemaReadingAs } from '../../core/schema/zodSchemas';
import type { McpGateway } from './gateway';
import { CALL_TOOL_DESCRIPTION, findToolsDescription } from './gatewayText';

/**
 * The gateway's tools on an `McpServer` (the skills server's, or one of its own): `find_tools`,
 * `call_tool`, and each directly listed upstream tool as a real tool. The list follows the
 * gateway: a pin, a tool found under `expose: 'found'`, or a changed upstream list adds, updates
 * or removes tools, and the SDK sends `notifications/tools/list_changed` for each change.
 */

const findInput = {
  query: z.string().min(1).max(500).describe('What you need, in plain words; or `select:name1,name2` for tools you know by name.'),
  limit: z.number().int().min(1).max(10).optional().describe('How many tools to return (1–10, default 5).'),
};

const callInput = {
  name: z.string().min(1).max(200).describe(`The tool's name as ${GATEWAY_FIND_TOOL_NAME} returned it.`),
  arguments: z.record(z.string(), z.unknown()).optional().describe("An object matching the tool's input schema."),
};

export function registerGatewayTools(server: McpServer, gateway: McpGateway): { dispose(): void } {
  // A search only reads Toolshed's index: said so, a client that runs read-only tools without asking
  // (Codex, whose exec mode refuses every other MCP call) can search. `call_tool` runs whatever the
  // upstream tool does, so it carries no hint and the client asks the user as it would for that tool.
  const find = server.registerTool(
    GATEWAY_FIND_TOOL_NAME,
    { description: findToolsDescription([]), inputSchema: findInput, annotations: { readOnlyHint: true, openWorldHint: false } },
    async ({ query, limit }) => {
      const answer = await gateway.search(query, limit);
      return { content: [{ type: 'text' as const, text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
    },
  );
  server.registerTool(GATEWAY_CALL_TOOL_NAME, { description: CALL_TOOL_DESCRIPTION, inputSchema: callInput }, ({ name, arguments: args }) =>
    gateway.call(name, args ?? {}),
  );

  const listed = new Map<string, { tool: RegisteredTool; description: string; schema: string }>();
  let findDescription = find.description;
  const sync = () => {
    const description = findToolsDescription(
      gateway.status().map((s) => ({ slug: s.slug, tools: s.tools })),
      gateway.learnedTools(),
    );
    if (description !== findDescription) {
      findDescription = description;
      find.update({ description });
    }
    const wanted = new Map(gateway.listedTools().map((d) => [d.name, d]));
    for (const [name, entry] of listed) {
      if (wanted.has(name)) continue;
      entry.tool.remove();
      listed.delete(name);
    }
    for (const [name, definition] of wanted) {
      const schema = JSON.stringify(definition.inputSchema ?? {});
      const entry = listed.get(name);
      if (entry && entry.description === definition.description && entry.schema === schema) continue;
      entry?.tool.remove();
      const tool = server.registerTool(
        name,
        { description: definition.description, inputSchema: objectSchemaReadingAs(definition.inputSchema), annotations: gateway.hintsOf(name) },
        (args: Record<string, unknown>) => gateway.call(name, args),
      );
      listed.set(name, { tool, description: definition.description, schema });
    }
  };
  gateway.events.on('listed', sync);
  gateway.events.on('tools', sync);
  sync();
  return {
    dispose() {
      gateway.events.off('listed', sync);
      gateway.events.off('tools', sync);
    },
  };
}
