import { ZodError } from 'zod';
import type { SkillRequestContext, SkillService } from '../skills/skillService';
import { SKILL_DISCOVERY_PROMPT, SKILL_GET_TOOL_NAME, SKILL_LIST_TOOL_NAME, SKILL_SEARCH_TOOL_NAME } from '../skills/skillToolSchemas';
import type { PlannerSkills, SkillUse } from './plannerPorts';
import { activeSkillsPreflight } from './selection/activeSkillsBlock';
import type { ActiveSkillsOptions } from './selection/activeSkillsBlock';

export interface PlannerSkillsOptions {
  /** Pre-flight budget in the model's own tokens. */
  maxTokens: number;
  topK: number;
  /** Skills pinned for this conversation (`/skill`) or in the Skill Directory view. */
  pinnedNames: readonly string[];
  /** Exact token count for the request's model. */
  countTokens(text: string): Promise<number>;
  /** Active skills chosen by the model (`model` / `hybrid`); absent = search pre-flight. */
  selection?: Omit<ActiveSkillsOptions, 'pinnedNames' | 'maxTokens' | 'countTokens'>;
  /** Cap on active skills with search pre-flight, pinned included (`toolshed.skills.maxActive`). */
  maxActive?: number;
}

const SKILL_TOOLS = new Set([SKILL_SEARCH_TOOL_NAME, SKILL_GET_TOOL_NAME, SKILL_LIST_TOOL_NAME]);
/** Budget for the full text of pinned skills (they were asked for explicitly). */
const PINNED_MAX_TOKENS = 3000;

/**
 * The planner's skills port over the skill service, bound to one request's context (scope,
 * tool gate, workspace trust). Budgets are enforced twice: the service fits its estimate, then
 * the exact count from the model is checked and the budget tightened until it fits, so what
 * is injected is never over budget in the model's own tokens.
 */
export function plannerSkillsFrom(service: SkillService, ctx: SkillRequestContext, options: PlannerSkillsOptions): PlannerSkills {
  const uses = (names: readonly string[], reason?: string): SkillUse[] =>
    names.map((name) => {
      const record = service.inspect(name);
      return { name, title: record?.title, path: record?.source_file || undefined, reason };
    });
  const pinnedCount = options.pinnedNames.filter((name) => service.inspect(name)).length;

  return {
    async preflight(prompt) {
      if (options.selection) {
        return activeSkillsPreflight(service, ctx, prompt, { ...options.selection, pinnedNames: options.pinnedNames, maxTokens: options.maxTokens, countTokens: options.countTokens });
      }
      const topK = options.maxActive === undefined ? options.topK : Math.min(options.topK, Math.max(0, options.maxActive - pinnedCount));
      if (topK <= 0 || options.maxTokens <= 0) return { block: '', used: [] };
      let budget = options.maxTokens;
      for (let attempt = 0; attempt < 4 && budget >= 50; attempt++) {
        const result = await service.getRelevant({ task: prompt, top_k: topK, max_tokens: budget }, ctx);
        if (!result.text) return { block: '', used: [] };
        const exact = await options.countTokens(result.text);
        if (exact <= options.maxTokens) return { block: result.text, used: uses(result.skills, 'best match') };
        budget = Math.floor((budget * options.maxTokens) / exact * 0.9);
      }
      return { block: '', used: [] };
    },
    async pinned() {
      if (options.pinnedNames.length === 0) return { block: '', used: [] };
      const output = await service.get({ names: options.pinnedNames.slice(0, 10), format: 'injection', max_tokens: PINNED_MAX_TOKENS }, ctx);
      if (!output.formatted_context) return { block: '', used: [] };
      return {
        block: `<pinned_skills>\nThe user pinned these skills for this conversation; follow them when they apply.\n${output.formatted_context}\n</pinned_skills>`,
        used: uses(output.skills.map((s) => s.name), 'pinned'),
      };
    },
    async directory() {
      return (await service.directory(ctx)).text;
    },
    promptBlocks: () => [SKILL_DISCOVERY_PROMPT],
    handles: (toolName) => SKILL_TOOLS.has(toolName),
    async handle(toolName, input) {
      try {
        if (toolName === SKILL_SEARCH_TOOL_NAME) {
          return { resultText: JSON.stringify(await service.search(input, ctx)), used: [] };
        }
        if (toolName === SKILL_GET_TOOL_NAME) {
          const output = await service.get(input, ctx);
          return { resultText: JSON.stringify(output), used: uses(output.skills.map((s) => s.name)) };
        }
        return { resultText: JSON.stringify(await service.list(input, ctx)), used: [] };
      } catch (error) {
        return { resultText: describeToolInputError(toolName, error), used: [] };
      }
    },
  };
}

/** A validation failure written for the model to fix its call. */
export function describeToolInputError(toolName: string, error: unknown): string {
  if (error instanceof ZodError) {
    const issues = error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ');
    return `Invalid input for ${toolName}: ${issues}. Fix the arguments and call it again.`;
  }
  return `${toolName} failed: ${error instanceof Error ? error.message : String(error)}`;
}
