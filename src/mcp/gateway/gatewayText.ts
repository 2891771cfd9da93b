import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../../core/platform/chatTypes';
import { GATEWAY_CALL_TOOL_NAME, GATEWAY_FIND_TOOL_NAME } from '../../core/platform/toolNames';
import { estimateTokens } from '../../core/tools/modes/deferredNamesBlock';
import { toolDefinitionText } from '../../core/tools/tokenEconomy';

/**
 * What the gateway's own tools say to a model: the search answer (each found tool with its
 * description, examples and input schema, compact), the refusals, and the cap on a forwarded
 * answer. Upstream text arrives here already scrubbed and neutralised (gateway.ts).
 */

/** An upstream description longer than this is cut in a search answer (the schema follows it). */
const FOUND_DESCRIPTION_CHARS = 1_200;

export const NO_SUCH_GATEWAY_TOOL = `No tool of that name is available here. Use ${GATEWAY_FIND_TOOL_NAME} to find a tool, then ${GATEWAY_CALL_TOOL_NAME} with the name it returns.`;

const FIND_TOOLS_DESCRIPTION = [
  'Find tools of the MCP servers connected through Toolshed. Describe what you need in plain words',
  "(or `select:name1,name2` for tools you know by name); the answer gives each tool's name, what it does,",
  `examples and its input schema. Then run one with ${GATEWAY_CALL_TOOL_NAME} {"name", "arguments"}.`,
].join(' ');

export const CALL_TOOL_DESCRIPTION = `Run a tool found with ${GATEWAY_FIND_TOOL_NAME}: {"name": its name, "arguments": an object matching its input schema}. Returns the tool's own answer.`;

/**
 * The find_tools description with the servers it can search (names only; the catalog changes),
 * and the tools the learned core set lists directly (so the model calls them without a search).
 */
export function findToolsDescription(servers: readonly { slug: string; tools: number }[], learned: readonly string[] = []): string {
  const parts = [FIND_TOOLS_DESCRIPTION];
  if (servers.length > 0) parts.push(`Servers: ${servers.map((s) => `${s.slug} (${s.tools})`).join(', ')}.`);
  if (learned.length > 0) parts.push(`Already listed as tools, no search needed (used often in this workspace): ${learned.join(', ')}.`);
  return parts.join(' ');
}

/** Tokens a tool definition costs in a request (the same estimate the extension's token report uses). */
export function definitionTokens(definition: ToolDefinition): number {
  return estimateTokens(toolDefinitionText(definition));
}

export function renderFoundTools(definitions: readonly ToolDefinition[], note: string | undefined): string {
  if (definitions.length === 0) return note ?? 'No matching tools. Try other words.';
  const parts = definitions.map((definition) => {
    const description =
      definition.description.length > FOUND_DESCRIPTION_CHARS ? `${definition.description.slice(0, FOUND_DESCRIPTION_CHARS - 1)}…` : definition.description;
    return [`## ${definition.name}`, description, `Input schema: ${JSON.stringify(compactSchema(definition.inputSchema))}`].join('\n');
  });
  const head = `${definitions.length} tool${definitions.length === 1 ? '' : 's'} found. Run one with ${GATEWAY_CALL_TOOL_NAME} {"name": "<name>", "arguments": {…}}.`;
  return [head, ...parts].join('\n\n');
}

/** The schema without what a model does not need to call the tool (`$schema`, titles). */
function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'title') continue;
    out[key] = compactSchema(value);
  }
  return out;
}

/**
 * A forwarded answer within `maxChars`: text parts are cut, other parts count their JSON size and
 * are dropped once the budget is spent, and the model is told. `transformText` scrubs upstream text.
 */
export function capResult(result: CallToolResult, maxChars: number, server: string, transformText: (text: string) => string): CallToolResult {
  let budget = maxChars;
  let cut = false;
  const content: CallToolResult['content'] = [];
  for (const part of Array.isArray(result.content) ? result.content : []) {
    if (budget <= 0) {
      cut = true;
      break;
    }
    if (part.type === 'text') {
      const text = transformText(part.text);
      if (text.length > budget) {
        content.push({ ...part, text: text.slice(0, budget) });
        cut = true;
        budget = 0;
      } else {
        content.push({ ...part, text });
        budget -= text.length;
      }
      continue;
    }
    const size = JSON.stringify(part).length;
    if (size > budget) {
      cut = true;
      budget = 0;
      continue;
    }
    content.push(part);
    budget -= size;
  }
  if (cut) content.push({ type: 'text', text: `[Toolshed: the answer of MCP server "${server}" was cut at ${maxChars} characters.]` });
  const scrubbed = cut ? undefined : scrubbedStructure(result.structuredContent, transformText);
  // Structured content repeats the answer for programs; past the cap it is left out, not cut.
  const structured = scrubbed && JSON.stringify(scrubbed).length <= maxChars ? scrubbed : undefined;
  return {
    content,
    ...(result.isError ? { isError: true } : {}),
    ...(structured ? { structuredContent: structured } : {}),
  };
}

/** Structured content through the same scrub as text (dropped if the scrub made it unreadable). */
function scrubbedStructure(value: unknown, transformText: (text: string) => string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(transformText(JSON.stringify(value)));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
