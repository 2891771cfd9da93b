import { z } from 'zod';
import { loadingModeSchema } from '../config/settingsSchema';
import { describeZodIssues, zodJsonSchema } from '../schema/zodSchemas';

/**
 * The `tool_search` contract (docs/contracts.md#tool_search-input-and-output). Input and output
 * field names are snake_case because models read them. The same zod schema validates calls and, through
 * `toolSearchInputJsonSchema()`, becomes the LanguageModelTool `inputSchema` in VS Code.
 */

const searchTypeSchema = z.enum(['fts', 'regex', 'exact']);
export type SearchType = z.infer<typeof searchTypeSchema>;

export const toolSearchInputSchema = z.object({
  query: z
    .string()
    .min(1)
    .max(500)
    .describe(
      'What you need: plain words describing the capability (fts), a regular expression over tool names and descriptions (regex), or a tool name (exact). `select:name1,name2` loads those exact tools directly.',
    ),
  search_type: searchTypeSchema
    .default('fts')
    .describe('fts: ranked full-text search (default). regex: pattern over names/descriptions/tags. exact: tool name(s).'),
  limit: z.number().int().min(1).max(20).default(5).describe('Maximum number of tools to return (1–20).'),
  include_always_loaded: z.boolean().default(false).describe('Also return tools that are already always visible.'),
});
export type ToolSearchInput = z.infer<typeof toolSearchInputSchema>;
export type ToolSearchInputRaw = z.input<typeof toolSearchInputSchema>;

const toolSearchResultItemSchema = z.object({
  name: z.string(),
  description: z.string(),
  score: z.number().min(0).max(1),
  match_type: searchTypeSchema,
  loading_mode: loadingModeSchema,
  /** Extra: compact parameter list so the model can call next. */
  parameters: z.string().optional(),
});

export const toolSearchOutputSchema = z.object({
  tools: z.array(toolSearchResultItemSchema),
  query: z.string(),
  search_type: searchTypeSchema,
  /** Extra: a short note for the model (regex rejected or cut short, nothing found…). */
  note: z.string().optional(),
});
export type ToolSearchOutput = z.infer<typeof toolSearchOutputSchema>;

/** JSON Schema of the input, for `languageModelTools[].inputSchema` and `vscode.lm.registerTool`. */
export function toolSearchInputJsonSchema(): Record<string, unknown> {
  return zodJsonSchema(toolSearchInputSchema, 'toolInput');
}

/** Turns zod issues into one sentence a model can act on. */
export function describeInputProblem(error: z.ZodError): string {
  return `Invalid tool_search input (${describeZodIssues(error, 'input', 3)}). Expected {"query": string, "search_type"?: "fts"|"regex"|"exact", "limit"?: 1-20, "include_always_loaded"?: boolean}.`;
}
