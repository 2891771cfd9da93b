import { skillGetInputJsonSchema, skillListInputJsonSchema, skillSearchInputJsonSchema } from '../skills/skillToolSchemas';
import { SKILL_TOOL_FREE_INPUT_JSON_SCHEMA } from '../skills/singleSkillTool';
import { toolSearchInputJsonSchema } from '../tools/toolSearchSchema';
import { skillReportFailureInputSchema, skillReportOutcomeInputSchema } from '../learning/feedback/reportToolSchemas';
import { zodJsonSchema } from '../schema/zodSchemas';
import {
  SKILL_GET_TOOL_NAME,
  SKILL_LIST_TOOL_NAME,
  SKILL_REPORT_FAILURE_TOOL_NAME,
  SKILL_REPORT_OUTCOME_TOOL_NAME,
  SKILL_SEARCH_TOOL_NAME,
  SKILL_TOOL_NAME,
  TOOL_INVOKE_TOOL_NAME,
  TOOL_SEARCH_TOOL_NAME,
} from '../platform/toolNames';

/**
 * Input JSON Schemas of the language-model tools Toolshed contributes, from the same
 * zod schemas the core validates with. `scripts/sync-manifest.ts` writes them into
 * package.json (`contributes.languageModelTools[].inputSchema`); a unit test checks they agree.
 */
const TOOL_INVOKE_INPUT_JSON_SCHEMA: Record<string, unknown> = {
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
    [TOOL_SEARCH_TOOL_NAME]: toolSearchInputJsonSchema(),
    [TOOL_INVOKE_TOOL_NAME]: TOOL_INVOKE_INPUT_JSON_SCHEMA,
    [SKILL_SEARCH_TOOL_NAME]: skillSearchInputJsonSchema(),
    [SKILL_GET_TOOL_NAME]: skillGetInputJsonSchema(),
    [SKILL_LIST_TOOL_NAME]: skillListInputJsonSchema(),
    [SKILL_TOOL_NAME]: SKILL_TOOL_FREE_INPUT_JSON_SCHEMA,
    [SKILL_REPORT_OUTCOME_TOOL_NAME]: zodJsonSchema(skillReportOutcomeInputSchema, 'toolInput'),
    [SKILL_REPORT_FAILURE_TOOL_NAME]: zodJsonSchema(skillReportFailureInputSchema, 'toolInput'),
  };
}
