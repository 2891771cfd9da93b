import { z } from 'zod';
import { SKILL_DOCUMENT_FORMATS, scopeModeSchema, taskTypeSchema } from '../config/settingsSchema';
import { zodJsonSchema } from '../schema/zodSchemas';

/**
 * The one schema of a skill. From it come:
 * - the TypeScript types (`SkillRecord` and the rest),
 * - the validator used by the document parser (whose issues become diagnostics with positions),
 * - the JSON Schema for `*.skill.yaml|json` editors (`skillFileJsonSchema()`, callable from a
 *   plain node script at build time).
 *
 * Two document shapes share the same fields:
 * - step-based skills (`*.skill.md` frontmatter, `*.skill.yaml|yml`, `*.skill.json`, a line of
 *   `*.skill.jsonl`): `steps` is a non-empty list of strings; `trigger` (or `description`, or
 *   `triggers`) non-empty;
 * - agentskills.io `<name>/SKILL.md`: `name` and `description` required, the markdown body is
 *   the instructions.
 * Unknown keys are accepted (kept in `extra`) and reported as warnings by the parser.
 */

export const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const AGENT_SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** agentskills.io's length limit of a SKILL.md name. */
const AGENT_SKILL_NAME_MAX = 64;

/**
 * The one rule that turns any text into an agentskills.io name (docs/skills.md, "Names that do
 * not follow the rule"): accents dropped, lower-case, every run of other characters one `-`,
 * hyphens trimmed at both ends, cut to 64 characters. `Ethical Hacking Methodology` →
 * `ethical-hacking-methodology`, `gold_price_mcp` → `gold-price-mcp`. Stable: the same text
 * always gives the same name, and a conforming name is returned as it is. Empty when nothing
 * of the text is a letter or digit of a-z/0-9 (e.g. a name in another script).
 */
export function normalizeAgentSkillName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, AGENT_SKILL_NAME_MAX)
    .replace(/-+$/, '');
}
const ENV_VAR_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

const nonEmptyText = z.string().trim().min(1, 'must not be empty');
const textList = z.array(z.string().trim().min(1, 'list entries must not be empty'));

const skillToolRefSchema = z
  .union([z.string().min(1), z.object({ tool: z.string().min(1), note: z.string().optional() }).loose()])
  .describe('A tool the skill uses: a name, or `{ tool, note }`.');

/** Fields every format may carry (all optional here; per-format rules are added below). */
export const skillFieldsShape = {
  id: z
    .string()
    .regex(/^sk_[A-Za-z0-9_]+$/, 'ids look like `sk_…`')
    .optional()
    .describe('Opaque storage id (`sk_…`). Normally generated; omit it.'),
  name: z
    .string()
    .regex(SKILL_NAME_PATTERN, 'names use letters, digits, `.`, `_` and `-` (at most 128 characters) and start with a letter or digit')
    .optional()
    .describe('Stable, unique name used by `skill_get`. Generated as `pack.<pack>.<file>` when absent.'),
  title: z.string().max(200, 'at most 200 characters').optional().describe('Short human-friendly label.'),
  description: z.string().max(4096, 'at most 4096 characters').optional().describe('What the skill does (used as the trigger when there is none).'),
  trigger: z.string().max(1024, 'at most 1024 characters').optional().describe('When to use this skill, in one sentence.'),
  triggers: z.union([z.string(), textList]).optional().describe('Keywords or phrases that should surface this skill.'),
  task_type: taskTypeSchema.optional().describe('`browser`, `api`, `code`, `domain` or `unknown` (default).'),
  tags: textList.optional().describe('Search keywords.'),
  steps: textList.optional().describe('The procedure, one instruction per entry.'),
  preconditions: textList.optional().describe('What must hold before starting.'),
  failure_modes: textList.optional().describe('What commonly goes wrong and what to do then.'),
  body: z.string().optional().describe('Markdown instructions (the body of a `.skill.md` / `SKILL.md` file).'),
  domain: z.string().optional().describe('Domain this skill belongs to (searchable).'),
  frames: textList.optional().describe('Frames/contexts that should surface this skill (searchable).'),
  tools: z.array(skillToolRefSchema).optional().describe('Tools the skill uses. Names the run may not use are removed when rendered.'),
  requires: z
    .array(z.string().regex(ENV_VAR_PATTERN, 'environment variable names use letters, digits and `_`'))
    .optional()
    .describe('Environment variables that must be set; otherwise the skill is inactive.'),
  cluster: z
    .string()
    .max(100, 'at most 100 characters')
    .optional()
    .describe(
      'Theme this skill belongs to, e.g. `Browser Authentication` (compared ignoring case). The Skill Directory can group by it (`toolshed.skills.directoryGroupBy`), and pre-flight may add up to `toolshed.skills.clusterExpansion` skills of the same cluster as a top match, when they fit the budget.',
    ),
  license: z.string().optional().describe('License name or file.'),
  compatibility: z.string().max(500, 'at most 500 characters').optional().describe('Environment requirements (≤ 500 characters).'),
  metadata: z.record(z.string(), z.string()).optional().describe('Free-form string map (author, version, …).'),
  'allowed-tools': z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('Pre-approved tools (space-separated string or list).'),
  'argument-hint': z.string().optional().describe('VS Code: hint shown for slash-command arguments.'),
  'user-invokable': z.boolean().optional().describe('VS Code: whether the user can invoke it as a slash command.'),
  'user-invocable': z.boolean().optional().describe('VS Code: whether the user can invoke it as a slash command.'),
  'disable-model-invocation': z.boolean().optional().describe('When true the skill is never injected automatically.'),
  scripts: z
    .array(z.object({ file: z.string().min(1), description: z.string().optional(), args: z.record(z.string(), z.unknown()).optional() }).loose())
    .optional()
    .describe(
      'SKILL.md: describes files in `scripts/` as tools: `{ file, description, args }`, `args` a JSON Schema of the input (default `{ args: string[] }`).',
    ),
} as const;

export const KNOWN_SKILL_KEYS: readonly string[] = Object.keys(skillFieldsShape);

/** A step-based skill document (`*.skill.md` frontmatter, YAML, JSON, one JSONL line). */
export const skillFileSchema = z
  .object({
    ...skillFieldsShape,
    steps: textList.min(1, '`steps` must be a non-empty list of strings').describe('The procedure, one instruction per entry (required).'),
  })
  .loose()
  .describe('A Toolshed skill (`*.skill.yaml`, `*.skill.json`, `*.skill.md` frontmatter).');

/** agentskills.io `SKILL.md` frontmatter. */
export const agentSkillFrontmatterSchema = z
  .object({
    ...skillFieldsShape,
    name: z
      .string()
      .min(1, 'must not be empty')
      .max(AGENT_SKILL_NAME_MAX, 'at most 64 characters')
      .regex(AGENT_SKILL_NAME_PATTERN, 'use lowercase letters, digits and single hyphens (e.g. `write-tests`)')
      .describe('1–64 lowercase letters, digits and single hyphens; equal to the folder name.'),
    description: nonEmptyText.max(1024, 'at most 1024 characters').describe('What the skill does and when to use it (≤ 1024 characters).'),
  })
  .loose()
  .describe('An agentskills.io SKILL.md frontmatter.');

const skillOriginSchema = z.enum(['pack', 'learned']);
export type SkillOrigin = z.infer<typeof skillOriginSchema>;

const skillFormatSchema = z.enum([...SKILL_DOCUMENT_FORMATS, 'learned']);
export type SkillFormat = z.infer<typeof skillFormatSchema>;

const skillStatusSchema = z.enum(['active', 'inactive']);

/** The stored model: one row of `skills`. */
export const skillRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  description: z.string(),
  trigger: z.string(),
  task_type: taskTypeSchema,
  tags: z.array(z.string()),
  steps: z.array(z.string()),
  preconditions: z.array(z.string()),
  failure_modes: z.array(z.string()),
  body: z.string(),
  origin: skillOriginSchema,
  origin_ref: z.string(),
  content_hash: z.string(),
  scope_mode: scopeModeSchema,
  scope_tenant_id: z.string(),
  scope_project_id: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  last_used: z.number(),
  use_count: z.number(),
  /** Search/metadata extras from other skill systems. */
  domain: z.string(),
  frames: z.array(z.string()),
  triggers: z.array(z.string()),
  tools: z.array(z.object({ tool: z.string(), note: z.string().optional() })),
  allowed_tools: z.array(z.string()),
  requires: z.array(z.string()),
  /** agentskills/VS Code metadata (license, compatibility, metadata, argument-hint, …). */
  meta: z.record(z.string(), z.unknown()),
  /** `scripts/`, `references/`, `assets/` files of a SKILL.md folder (relative paths). */
  resources: z.array(z.string()),
  extra: z.record(z.string(), z.unknown()),
  /** Where it came from (pack skills): pack, absolute file, 1-based line of its definition. */
  pack_name: z.string(),
  workspace: z.boolean(),
  source_file: z.string(),
  source_line: z.number(),
  format: skillFormatSchema,
  status: skillStatusSchema,
  status_reason: z.string(),
  model_invocable: z.boolean(),
});
export type SkillRecord = z.infer<typeof skillRecordSchema>;

/** JSON Schema for `*.skill.yaml|yml|json` editors (draft 2020-12). Pure; no I/O. */
export function skillFileJsonSchema(): Record<string, unknown> {
  const schema = zodJsonSchema(skillFileSchema, 'editor');
  return {
    ...schema,
    $id: 'https://toolshed.dev/schemas/skill.schema.json',
    title: 'Toolshed skill',
    // trigger may come from `trigger`, `description` or `triggers` (checked by the validator too).
    anyOf: [{ required: ['trigger'] }, { required: ['description'] }, { required: ['triggers'] }],
  };
}

/** JSON Schema of SKILL.md frontmatter (for completions in the editor). */
export function agentSkillFrontmatterJsonSchema(): Record<string, unknown> {
  return zodJsonSchema(agentSkillFrontmatterSchema, 'editor');
}
