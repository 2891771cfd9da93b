import { skillGetInputJsonSchema, skillListInputJsonSchema, skillSearchInputJsonSchema } from '../skills/skillToolSchemas';
import { SKILL_TOOL_FREE_INPUT_JSON_SCHEMA } from '../skills/singleSkillTool';
import { toolSearchInputJsonSchema } from '../tools/toolSearchSchema';
import { skillReportFailureJsonSchema, skillReportOutcomeJsonSchema } from '../learning/feedback/reportToolSchemas';

/**
 * Input JSON Schemas of the language-model tools Toolshed contributes, from the same
 * zod schemas the core validates with. `scripts/sync-manifest.ts` writes them into
 * package.json (`contributes.languageModelTools[].inputSchema`); a unit test checks they agree.
 */
export const TOOL_INVOKE_INPUT_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Exact tool name, as returned by tool_search.' },
    input: { type: 'object', description: "The tool's input, matching its parameters.", additionalProperties: true },
  },
  required: ['name'],
  additionalProperties: false,
};

export function contributedToolInputSchemas(): Record<string, Record<string, unknown>> {
  return {
    tool_search: stripMeta(toolSearchInputJsonSchema()),
    tool_invoke: TOOL_INVOKE_INPUT_JSON_SCHEMA,
    skill_search: stripMeta(skillSearchInputJsonSchema()),
    skill_get: stripMeta(skillGetInputJsonSchema()),
    skill_list: stripMeta(skillListInputJsonSchema()),
    skill: SKILL_TOOL_FREE_INPUT_JSON_SCHEMA,
    skill_report_outcome: stripMeta(skillReportOutcomeJsonSchema()),
    skill_report_failure: stripMeta(skillReportFailureJsonSchema()),
  };
}

/** `$schema` is noise in a manifest and some model APIs reject it. */
function stripMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
