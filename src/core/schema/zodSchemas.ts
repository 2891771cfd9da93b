import { z } from 'zod';

/**
 * Where Toolshed's zod schemas meet the outside world: as JSON Schema (tool inputs, editor
 * completions, the manifest's settings) and as text when a value does not fit them.
 */

/**
 * - `toolInput`: what a model reads (`languageModelTools[].inputSchema`, `vscode.lm.registerTool`):
 *   the input side, draft-7, without `$schema` (noise in a manifest; some model APIs reject it).
 * - `editor`: skill-file completions (draft 2020-12); what JSON Schema cannot say becomes `{}`.
 * - `settings`: the input side of the settings schema, for the manifest's configuration.
 */
export type JsonSchemaUse = 'toolInput' | 'editor' | 'settings';

export function zodJsonSchema(schema: z.ZodType, use: JsonSchemaUse): Record<string, unknown> {
  if (use === 'editor') return z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  if (use === 'settings') return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** `path: message` for the first `max` issues, joined with `; `; `root` names the empty path. */
export function describeZodIssues(error: z.ZodError, root = 'input', max = Infinity): string {
  return error.issues
    .slice(0, max)
    .map((issue) => `${issue.path.join('.') || root}: ${issue.message}`)
    .join('; ');
}

/** A failed tool call as one sentence the model can act on: bad arguments, or the failure itself. */
export function describeToolInputError(toolName: string, error: unknown): string {
  if (error instanceof z.ZodError) return `Invalid input for ${toolName}: ${describeZodIssues(error)}. Fix the arguments and call it again.`;
  return `${toolName} failed: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * A schema that accepts any JSON object and converts back to `jsonSchema` (a tool's own input
 * schema, served unchanged by a server that takes zod schemas, such as the MCP SDK's `McpServer`).
 * The tool itself validates its arguments; `id` is left out (zod's registry keeps ids unique).
 */
export function objectSchemaReadingAs(jsonSchema: unknown): z.ZodType<Record<string, unknown>> {
  const source = typeof jsonSchema === 'object' && jsonSchema !== null && !Array.isArray(jsonSchema) ? (jsonSchema as Record<string, unknown>) : {};
  const { id: _id, $schema: _schema, ...rest } = source;
  return z.looseObject({}).meta({ type: 'object', ...rest });
}
