import type { SkillScriptTool } from '../../../../src/core/skills/scripts/scriptDiscovery';
import { DEFAULT_SCRIPT_SCHEMA } from '../../../../src/core/skills/scripts/scriptInterface';
import type { ScriptRunPlan } from '../../../../src/core/skills/scripts/scriptInvocation';

/** Skill `count`'s script `scripts/count_lines.js` as discovery offers it (node, default schema, no risks); `overrides` change any field. */
export function scriptTool(overrides: Partial<SkillScriptTool> = {}): SkillScriptTool {
  return {
    toolName: 'count_count_lines',
    skillName: 'count',
    skillFolder: '/skills/count',
    skillFile: '/skills/count/SKILL.md',
    file: '/skills/count/scripts/count_lines.js',
    relativePath: 'scripts/count_lines.js',
    kind: 'node',
    interpreter: 'node',
    description: 'Count lines',
    inputSchema: DEFAULT_SCRIPT_SCHEMA,
    declaredSchema: false,
    risks: [],
    allowedTools: [],
    requires: [],
    ...overrides,
  };
}

/** A plan to run `tool` with `/usr/bin/node`, no arguments, in `/ws`, with no environment; `overrides` change any field. */
export function scriptPlan(tool: SkillScriptTool = scriptTool(), overrides: Partial<ScriptRunPlan> = {}): ScriptRunPlan {
  return { tool, program: '/usr/bin/node', args: [], scriptArgs: [], cwd: '/ws', env: {}, envNames: [], ...overrides };
}
