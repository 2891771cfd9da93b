import { closeTag, openTag } from '../privacy/promptBlocks';
import { SKILL_DISCOVERY_TOOL_NAMES, SKILL_GET_TOOL_NAME, SKILL_SEARCH_TOOL_NAME } from '../platform/toolNames';
import type { SkillRequestContext, SkillService } from '../skills/skillService';
import { SKILL_DISCOVERY_PROMPT } from '../skills/skillToolSchemas';
import { describeToolInputError } from '../schema/zodSchemas';
import type { PlannerSkills, SkillPreflightRecord, SkillUse } from './plannerPorts';
import type { SkillSummarizer } from '../skills/render/modelSummary';
import { activeSkillsPreflight } from './selection/activeSkillsBlock';
import type { ActiveSkillsOptions } from './selection/activeSkillsBlock';

export interface PlannerSkillsOptions {
  /** The whole pre-flight budget in the model's own tokens: pinned and relevant skills together. */
  maxTokens: number;
  topK: number;
  /** Skills pinned for this conversation (`/skill`) or in the Skill Directory view. */
  pinnedNames: readonly string[];
  /** Exact token count for the request's model. */
  countTokens(text: string): Promise<number>;
  /** `toolshed.skills.summarize`: condenses relevant skills that structured compression had to cut. */
  summarize?: SkillSummarizer;
  /** Active skills chosen by the model (`model` / `hybrid`); absent = search pre-flight. */
  selection?: Omit<ActiveSkillsOptions, 'pinnedNames' | 'maxTokens' | 'countTokens'>;
  /** Cap on active skills with search pre-flight, pinned included (`toolshed.skills.maxActive`). */
  maxActive?: number;
}

const SKILL_TOOLS: ReadonlySet<string> = new Set(SKILL_DISCOVERY_TOOL_NAMES);
/** At most this many pinned skills are rendered. */
const MAX_PINNED = 10;
/** skill_get's smallest budget (its input schema). */
const MIN_GET_TOKENS = 200;
const PINNED_OPEN = `${openTag('pinned_skills')}\nThe user pinned these skills for this conversation; follow them when they apply.\n`;
const PINNED_CLOSE = `\n${closeTag('pinned_skills')}`;

/**
 * The planner's skills port over the skill service, bound to one request's context (scope,
 * tool gate, workspace trust). `maxTokens` is the whole pre-flight budget: pinned skills (asked
 * for explicitly) are fitted first, relevant skills get what remains, and whatever did not fit
 * is reported in `omitted`. Budgets are enforced twice: the service fits its estimate, then the
 * exact count from the model is checked and the budget tightened until it fits, so what is
 * injected is never over budget in the model's own tokens.
 */
export function plannerSkillsFrom(service: SkillService, ctx: SkillRequestContext, options: PlannerSkillsOptions): PlannerSkills {
  const uses = (names: readonly string[], reason?: string): SkillUse[] =>
    names.map((name) => {
      const record = service.inspect(name);
      return { name, title: record?.title, path: record?.source_file || undefined, reason };
    });
  /** Pinned skills within `limit` exact tokens (wrapper included). */
  async function fitPinned(
    names: readonly string[],
    limit: number,
  ): Promise<{ block: string; tokens: number; names: string[]; unavailable: string[]; suggested?: string[] }> {
    let unavailable: string[] = [];
    const none = () => ({ block: '', tokens: 0, names: [], unavailable });
    if (names.length === 0) return none();
    let budget = limit - (await options.countTokens(`${PINNED_OPEN}${PINNED_CLOSE}`));
    // The first call runs even without room, to learn which pins do not exist here at all.
    for (let attempt = 0; attempt < 4 && (attempt === 0 || budget >= MIN_GET_TOKENS); attempt++) {
      const output = await service.get({ names, format: 'injection', max_tokens: Math.max(MIN_GET_TOKENS, budget) }, ctx);
      unavailable = (output.missing ?? []).map((m) => m.name);
      if (!output.formatted_context || budget < MIN_GET_TOKENS) return none();
      const block = `${PINNED_OPEN}${output.formatted_context}${PINNED_CLOSE}`;
      const tokens = await options.countTokens(block);
      if (tokens <= limit) return { block, tokens, names: output.skills.map((s) => s.name), unavailable, suggested: output.suggested_tools };
      budget = Math.floor(((budget * limit) / tokens) * 0.9);
    }
    return none();
  }

  /** Relevant skills (pinned ones excluded) within `limit` exact tokens. */
  async function fitRelevant(
    prompt: string,
    limit: number,
    exclude: readonly string[],
    topK: number,
  ): Promise<{
    block: string;
    names: string[];
    omitted: string[];
    siblings?: string[];
    suggested?: string[];
    relevance?: Record<string, number>;
    ranked: SkillPreflightRecord['ranked'];
  }> {
    let budget = limit;
    let omitted: string[] = [];
    // What the gate looked at: the first search's hits (retries only shrink the budget).
    let ranked: SkillPreflightRecord['ranked'] = [];
    // The first attempt runs even without room, so the skills that did not fit are known.
    for (let attempt = 0; attempt < 4 && (attempt === 0 || budget >= 50); attempt++) {
      // The model summarizes at most once per request; tighter retries stay structured.
      const summarize = attempt === 0 ? options.summarize : undefined;
      const result = await service.getRelevant({ task: prompt, top_k: topK, max_tokens: budget, exclude, summarize }, ctx);
      if (attempt === 0) ranked = result.ranked;
      if (!result.text) return { block: '', names: [], omitted: result.omitted, ranked };
      const exact = await options.countTokens(result.text);
      if (exact <= limit)
        return {
          block: result.text,
          names: result.skills,
          omitted: result.omitted,
          siblings: result.cluster_siblings,
          suggested: result.suggested_tools,
          relevance: result.relevance,
          ranked,
        };
      omitted = [...result.skills, ...result.omitted];
      budget = Math.floor(((budget * limit) / exact) * 0.9);
    }
    return { block: '', names: [], omitted, ranked };
  }

  return {
    async preflight(prompt) {
      const empty = { pinnedBlock: '', relevantBlock: '', used: [], omitted: [] };
      if (options.maxTokens <= 0) return { ...empty, omitted: [...options.pinnedNames] };
      const wanted = options.pinnedNames.slice(0, MAX_PINNED);
      const pinned = await fitPinned(wanted, options.maxTokens);
      // Unknown or out-of-scope pins are not "left out for the budget"; they are just absent.
      const omitted = options.pinnedNames.filter((name) => !pinned.names.includes(name) && !pinned.unavailable.includes(name));
      const remaining = Math.max(0, options.maxTokens - pinned.tokens);
      const pinnedUses = uses(pinned.names, 'pinned');
      if (options.selection) {
        // The request's model chooses the active skills; pinned ones keep their slots.
        const active = await activeSkillsPreflight(service, ctx, prompt, {
          ...options.selection,
          pinnedNames: options.pinnedNames,
          maxTokens: remaining,
          countTokens: options.countTokens,
        });
        return {
          pinnedBlock: pinned.block,
          relevantBlock: active.block,
          used: [...pinnedUses, ...active.used],
          omitted,
          selectionTokens: active.selectionTokens,
          selectionRequests: active.selectionRequests,
          selectionModel: active.selectionModel,
          note: active.note,
          suggestedTools: mergeNames(pinned.suggested, active.suggestedTools),
          record: active.record,
        };
      }
      // toolshed.skills.maxActive caps the active skills, pinned included.
      const topK = options.maxActive === undefined ? options.topK : Math.min(options.topK, Math.max(0, options.maxActive - pinned.names.length));
      const relevant = topK > 0 ? await fitRelevant(prompt, remaining, options.pinnedNames, topK) : { block: '', names: [], omitted: [], ranked: [] };
      const siblings = new Set(relevant.siblings ?? []);
      return {
        pinnedBlock: pinned.block,
        relevantBlock: relevant.block,
        used: [
          ...pinnedUses,
          ...withRelevance(
            uses(
              relevant.names.filter((n) => !siblings.has(n)),
              'best match',
            ),
            relevant.relevance,
          ),
          ...uses(
            relevant.names.filter((n) => siblings.has(n)),
            'same cluster',
          ),
        ],
        omitted: [...omitted, ...relevant.omitted],
        suggestedTools: mergeNames(pinned.suggested, relevant.suggested),
        record: { selection: 'search', ranked: relevant.ranked },
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

/** Pre-flight matches with their absolute relevance (cluster siblings have none of their own). */
function withRelevance(used: SkillUse[], relevance: Readonly<Record<string, number>> = {}): SkillUse[] {
  return used.map((use) => (relevance[use.name] === undefined ? use : { ...use, relevance: relevance[use.name] }));
}

/** Names of both lists, first list first, without repeats. */
function mergeNames(first: readonly string[] = [], second: readonly string[] = []): string[] {
  return [...new Set([...first, ...second])];
}
