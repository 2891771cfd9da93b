import type { SkillsConfig } from '../../config/settingsSchema';
import { SKILL_DISCOVERY_TOOL_NAMES, SKILL_TOOL_NAME, TOOL_INVOKE_TOOL_NAME } from '../../platform/toolNames';

/**
 * Toolshed's own tools the @toolshed loop never offers: `tool_invoke` exists for agent mode (in
 * the loop deferred tools are called directly), the skill tools the tool style leaves out, and
 * with skills turned off every skill tool. The turn, `/tools` and every bench read this one list,
 * so what they show or measure is exactly what the model receives.
 */
export function hiddenFromLoop(skills: Pick<SkillsConfig, 'enabled' | 'toolStyle'>): string[] {
  return [TOOL_INVOKE_TOOL_NAME, ...(skills.enabled ? skillToolsHiddenFromLoop(skills.toolStyle) : [...SKILL_DISCOVERY_TOOL_NAMES, SKILL_TOOL_NAME])];
}

/** Skill tools the loop must not offer for a tool style (the static `skill` included in `discovery`). */
function skillToolsHiddenFromLoop(style: SkillsConfig['toolStyle']): string[] {
  if (style === 'discovery') return [SKILL_TOOL_NAME];
  return style === 'single' ? [...SKILL_DISCOVERY_TOOL_NAMES] : [];
}
