import type { SkillRequestContext, SkillService } from '../../skills/skillService';
import type { CancellationSignal, ChatModelPort } from '../../platform/chatTypes';
import type { SkillPreflightRecord, SkillUse } from '../plannerPorts';
import { HYBRID_CANDIDATES, MODEL_MODE_CANDIDATES, selectActiveSkills } from './activeSkillSelection';
import type { SelectionMode } from './activeSkillSelection';

const GET_MIN_TOKENS = 200;
const GET_MAX_TOKENS = 6000;

export interface ActiveSkillsOptions {
  mode: Exclude<SelectionMode, 'search'>;
  maxActive: number;
  timeoutMs: number;
  /** hybrid: below this absolute relevance the best candidate is confirmed by the model (`toolshed.skills.askModelBelowRelevance`). */
  askModelBelowRelevance?: number;
  /** The model that chooses (the request's, or a smaller one of its vendor); absent = search order (the CLI). */
  model?: ChatModelPort;
  /** The choosing model's name, for the footer. */
  modelName?: string;
  signal: CancellationSignal;
  /** Names pinned for this request; they take the first slots (rendered by the pinned block). */
  pinnedNames: readonly string[];
  /** Token budget of the active skills' full text, in the model's own tokens. */
  maxTokens: number;
  countTokens(text: string): Promise<number>;
}

export interface ActiveSkillsBlock {
  block: string;
  used: SkillUse[];
  selectionTokens: number;
  /** Model requests made to choose (0 or 1). */
  selectionRequests: number;
  /** The model asked to choose (absent when none was asked or its name is unknown). */
  selectionModel?: string;
  /** Shown to the user when the model's choice was not used. */
  note?: string;
  /** Tools the loaded skills name that the run may use (skill_get's `suggested_tools`). */
  suggestedTools?: string[];
  record: SkillPreflightRecord;
}

/**
 * Pre-flight for `model` / `hybrid` selection: candidates from the skill service, the choice
 * from the request's model, then the chosen skills loaded in full (body within the budget,
 * `references/` and `scripts/` listed, not loaded). The exact token count is checked and the
 * budget tightened until the block fits, as for search pre-flight.
 */
export async function activeSkillsPreflight(
  service: SkillService,
  ctx: SkillRequestContext,
  prompt: string,
  options: ActiveSkillsOptions,
): Promise<ActiveSkillsBlock> {
  const limit = options.mode === 'model' ? MODEL_MODE_CANDIDATES : HYBRID_CANDIDATES;
  let ranked: SkillPreflightRecord['ranked'] = [];
  const candidates = await service.selectionCandidates(prompt, limit, ctx, options.mode === 'model', (seen) => (ranked = seen));
  const pinned = options.pinnedNames.filter((name) => service.inspect(name));
  const outcome = await selectActiveSkills(
    {
      mode: options.mode,
      task: prompt,
      candidates,
      pinned,
      maxActive: options.maxActive,
      timeoutMs: options.timeoutMs,
      askModelBelowRelevance: options.askModelBelowRelevance,
    },
    { model: options.model, modelName: options.modelName, signal: options.signal },
  );
  const note = outcome.fallbackReason
    ? `Skill selection used the search order: ${outcome.fallbackReason}.`
    : outcome.wouldAskModel && !outcome.askedModel
      ? `A model would be asked to choose among ${candidates.length} candidate${candidates.length === 1 ? '' : 's'} (${candidates
          .slice(0, 5)
          .map((c) => `${c.name} ${(c.relevance ?? 1).toFixed(2)}`)
          .join(
            ', ',
          )}); without its answer only those at or above toolshed.skills.askModelBelowRelevance whose name and description share enough of the request's words are injected, and none when no candidate stands out from the rest.`
      : undefined;
  // Chosen by the names shown; loaded by the stored ones (a redacted name would load nothing).
  const keyOf = new Map(candidates.map((c) => [c.name, c.key]));
  const chosen = outcome.active.filter((skill) => skill.reason !== 'pinned').map((skill) => ({ ...skill, name: keyOf.get(skill.name) ?? skill.name }));
  const shownAs = new Map(candidates.map((c) => [c.key, c.name]));
  const relevance = new Map(candidates.map((c) => [c.name, c.relevance]));
  const empty: ActiveSkillsBlock = {
    block: '',
    used: [],
    selectionTokens: outcome.selectionTokens,
    selectionRequests: outcome.askedModel ? 1 : 0,
    note,
    ...(outcome.modelName ? { selectionModel: outcome.modelName } : {}),
    record: {
      selection: options.mode,
      ranked,
      offered: candidates.map((c) => c.name),
      model: {
        asked: outcome.askedModel,
        wouldAsk: outcome.wouldAskModel,
        ...(outcome.modelName ? { name: outcome.modelName } : {}),
        chose: outcome.askedModel && !outcome.fallbackReason ? chosen.map((skill) => shownAs.get(skill.name) ?? skill.name) : [],
        ...(outcome.fallbackReason ? { fallback: outcome.fallbackReason } : {}),
      },
    },
  };
  if (chosen.length === 0 || options.maxTokens <= 0) return empty;
  const reasons = new Map<string, string>(chosen.map((skill) => [skill.name, skill.reason]));
  // skill_get renders within 200–6000 tokens; a smaller budget cannot hold a skill in full.
  let budget = Math.min(options.maxTokens, GET_MAX_TOKENS);
  // toolshed.skills.clusterExpansion applies to every selection mode: siblings of the first
  // chosen skill with a cluster, only in room the chosen ones leave (never shortening them).
  let siblings =
    budget >= GET_MIN_TOKENS
      ? await service
          .clusterSiblings(
            chosen.map((skill) => skill.name),
            { maxTokens: budget, exclude: options.pinnedNames, searchOrder: candidates.map((c) => c.key) },
            ctx,
          )
          .catch(() => [])
      : [];
  for (const name of siblings) reasons.set(name, 'same cluster');
  for (let attempt = 0; attempt < 4 && budget >= GET_MIN_TOKENS; attempt++) {
    const output = await service
      .get({ names: [...chosen.map((skill) => skill.name), ...siblings], format: 'injection', max_tokens: budget }, ctx)
      .catch(() => undefined);
    if (!output) return empty;
    if (!output.formatted_context) return empty;
    const exact = await options.countTokens(output.formatted_context);
    if (exact > options.maxTokens && siblings.length) {
      // Over the model's exact count: the siblings go first, at the same budget.
      siblings = [];
      continue;
    }
    if (exact <= options.maxTokens) {
      const used = output.skills.map((skill) => {
        const key = keyOf.get(skill.name) ?? skill.name;
        const record = service.inspect(key);
        return {
          name: skill.name,
          title: record?.title,
          path: record?.source_file || undefined,
          reason: reasons.get(key),
          relevance: relevance.get(skill.name),
        };
      });
      return { ...empty, block: output.formatted_context, used, suggestedTools: output.suggested_tools ?? [] };
    }
    budget = Math.floor(((budget * options.maxTokens) / exact) * 0.9);
  }
  return empty;
}
