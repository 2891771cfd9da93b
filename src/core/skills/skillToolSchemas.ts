import { z } from 'zod';
import { taskTypeSchema } from '../config/settingsSchema';
import { renderPromptBlock } from '../privacy/promptBlocks';
import { zodJsonSchema } from '../schema/zodSchemas';

/**
 * Contracts of the skill discovery tools (docs/contracts.md#tool_search-input-and-output). Field
 * names are snake_case (models read them). Each zod schema validates calls and, through the
 * `*JsonSchema()` functions, becomes a LanguageModelTool `inputSchema` in VS Code. Output fields
 * marked "extra" are additions to the shape every search tool shares.
 */

const skillSearchTypeSchema = z.enum(['fts', 'regex', 'exact']);
export type SkillSearchType = z.infer<typeof skillSearchTypeSchema>;

/**
 * Longest `skill_search` query: a whole pasted task is a good query (search weighs its words and
 * is exact over every skill, search/requestTerms.ts), so the limit only bounds work, not quality.
 */
const MAX_SKILL_QUERY_CHARS = 20_000;

export const skillSearchInputSchema = z.object({
  query: z
    .string()
    .min(1)
    .max(MAX_SKILL_QUERY_CHARS)
    .describe('What you need help with, in plain words (fts); a regular expression over skill names, titles and triggers (regex); or a skill name (exact).'),
  search_type: skillSearchTypeSchema.default('fts').describe('fts: ranked full-text search (default). regex: pattern match. exact: skill name.'),
  limit: z.number().int().min(1).max(20).default(8).describe('Maximum number of skills to return (1–20).'),
  task_type: taskTypeSchema.optional().describe('Only skills of this task type.'),
});

/** @public The answer's shape, also the type below; kept as a schema so the contract reads like the input's. */
export const skillSearchOutputSchema = z.object({
  skills: z.array(
    z.object({
      name: z.string(),
      title: z.string().optional(),
      trigger: z.string(),
      task_type: z.string().optional(),
      score: z.number().min(0).max(1),
      /** Extra: absolute relevance in [0, 1] (share of the query's weight this skill covers), comparable across queries; `score` stays relative to this response. */
      relevance: z.number().min(0).max(1).optional(),
      /** Extra: names of lower-ranked near-copies of this skill (same description, another pack) left out so the list holds different skills. */
      near_copies: z.array(z.string()).optional(),
    }),
  ),
  query: z.string(),
  search_type: skillSearchTypeSchema,
  /** Extra: why results are empty or a fallback was used. */
  note: z.string().optional(),
  /** Extra: tools the returned skills name that this run may use (never a denied or hidden one). */
  suggested_tools: z.array(z.string()).optional(),
});
export type SkillSearchOutput = z.infer<typeof skillSearchOutputSchema>;

export const skillGetInputSchema = z.object({
  names: z.array(z.string().min(1).max(200)).min(1).max(10).describe('Skill names (from the skill directory or skill_search), 1–10.'),
  format: z.enum(['raw', 'injection']).default('injection').describe('injection: a block ready to follow (default). raw: plain markdown per skill.'),
  max_tokens: z.number().int().min(200).max(6000).default(1500).describe('Token budget for the returned content (200–6000).'),
});

/** @public The answer's shape, also the type below; kept as a schema so the contract reads like the input's. */
export const skillGetOutputSchema = z.object({
  skills: z.array(
    z.object({
      name: z.string(),
      title: z.string().optional(),
      trigger: z.string(),
      steps: z.array(z.string()),
      preconditions: z.array(z.string()).optional(),
      failure_modes: z.array(z.string()).optional(),
      /** Extra: SKILL.md instructions. */
      body: z.string().optional(),
      /** Extra: files of a SKILL.md folder, loaded only on demand. */
      resources: z.array(z.string()).optional(),
    }),
  ),
  formatted_context: z.string(),
  /** Extra: names that were not returned, with the reason and the closest known names. */
  missing: z.array(z.object({ name: z.string(), reason: z.string(), suggestions: z.array(z.string()) })).optional(),
  /** Extra: a message for the model when something was missing. */
  message: z.string().optional(),
  /** Extra: tools the returned skills name that this run may use (never a denied or hidden one). */
  suggested_tools: z.array(z.string()).optional(),
});
export type SkillGetOutput = z.infer<typeof skillGetOutputSchema>;

export const skillListInputSchema = z.object({
  page: z.number().int().min(1).default(1).describe('1-based page number.'),
  page_size: z.number().int().min(1).max(50).default(20).describe('Skills per page (1–50).'),
  task_type: taskTypeSchema.optional().describe('Only skills of this task type.'),
  origin: z.enum(['pack', 'learned']).optional().describe('Only pack (curated) or learned skills.'),
  scope: z.enum(['project', 'tenant', 'global']).optional().describe('Only skills of this scope.'),
});

/** @public The answer's shape, also the type below; kept as a schema so the contract reads like the input's. */
export const skillListOutputSchema = z.object({
  skills: z.array(z.object({ name: z.string(), title: z.string().optional(), trigger: z.string(), task_type: z.string(), origin: z.string() })),
  page: z.number(),
  page_size: z.number(),
  total: z.number(),
  total_pages: z.number(),
  has_more: z.boolean(),
});
export type SkillListOutput = z.infer<typeof skillListOutputSchema>;

export function skillSearchInputJsonSchema(): Record<string, unknown> {
  return zodJsonSchema(skillSearchInputSchema, 'toolInput');
}

export function skillGetInputJsonSchema(): Record<string, unknown> {
  return zodJsonSchema(skillGetInputSchema, 'toolInput');
}

export function skillListInputJsonSchema(): Record<string, unknown> {
  return zodJsonSchema(skillListInputSchema, 'toolInput');
}

export const SKILL_DISCOVERY_PROMPT = renderPromptBlock('skill_discovery', [
  'You can discover and fetch skills:',
  '- Use `skill_search` to find skills by capability (returns skill names).',
  '- Use `skill_get` with a skill name for the full playbook.',
]);
