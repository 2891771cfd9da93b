import { skillGetInputJsonSchema, skillListInputJsonSchema, skillSearchInputJsonSchema } from '../skills/skillToolSchemas';
import { SKILL_TOOL_FREE_INPUT_JSON_SCHEMA } from '../skills/singleSkillTool';
import { toolSearchInputJsonSchema } from '../tools/toolSearchSchema';
import { skillReportFailureInputSchema, skillReportOutcomeInputSchema } from '../learning/feedback/reportToolSchemas';
import { zodJsonSchema } from '../schema/zodSchemas';

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
    tool_search: toolSearchInputJsonSchema(),
    tool_invoke: TOOL_INVOKE_INPUT_JSON_SCHEMA,
    skill_search: skillSearchInputJsonSchema(),
    skill_get: skillGetInputJsonSchema(),
    skill_list: skillListInputJsonSchema(),
    skill: SKILL_TOOL_FREE_INPUT_JSON_SCHEMA,
    skill_report_outcome: zodJsonSchema(skillReportOutcomeInputSchema, 'toolInput'),
    skill_report_failure: zodJsonSchema(skillReportFailureInputSchema, 'toolInput'),
  };
}
