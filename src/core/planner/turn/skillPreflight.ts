import type { SkillsConfig } from '../../config/settingsSchema';
import type { SkillRequestContext, SkillService } from '../../skills/skillService';
import type { PlannerSkills } from '../plannerPorts';
import { plannerSkillsFrom } from '../plannerSkills';
import { preflightOptionsFrom } from '../preflightOptions';
import type { PreflightRequest } from '../preflightOptions';

/**
 * Skill pre-flight as a turn runs it: the skills settings turned into pre-flight options over
 * the skill service, for one request's context. The turn, `toolshed preflight skills` and the
 * skill benches call this one function, so what they print or measure is what @toolshed injects.
 */
export function skillPreflight(service: SkillService, ctx: SkillRequestContext, config: SkillsConfig, request: PreflightRequest): PlannerSkills {
  return plannerSkillsFrom(service, ctx, preflightOptionsFrom(config, request));
}
