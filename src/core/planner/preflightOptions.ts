import type { SkillsConfig } from '../config/settingsSchema';
import type { CancellationSignal, ChatModelPort } from '../platform/chatTypes';
import type { SkillSummarizer } from '../skills/render/modelSummary';
import type { PlannerSkillsOptions } from './plannerSkills';

/**
 * Pre-flight options from the skills settings. @toolshed and `toolshed preflight skills` build
 * them here, so the CLI shows what the extension would inject with the same settings.
 */
export interface PreflightRequest {
  /** The pre-flight budget (default `maxTokens`; the extension lends some of it to learned warnings). */
  maxTokens?: number;
  pinnedNames: readonly string[];
  countTokens(text: string): Promise<number>;
  summarize?: SkillSummarizer;
  /** The model that chooses active skills, and its name for the footer; absent (the CLI) = search order, with a note when a model would have been asked. */
  chooser?: { model: ChatModelPort; modelName?: string };
  signal: CancellationSignal;
}

export function preflightOptionsFrom(skills: SkillsConfig, request: PreflightRequest): PlannerSkillsOptions {
  return {
    maxTokens: request.maxTokens ?? skills.maxTokens,
    topK: skills.topK,
    pinnedNames: request.pinnedNames,
    countTokens: request.countTokens,
    summarize: request.summarize,
    maxActive: skills.maxActive,
    selection:
      skills.selection === 'search'
        ? undefined
        : {
            mode: skills.selection,
            maxActive: skills.maxActive,
            timeoutMs: skills.selectionTimeoutMs,
            askModelBelowRelevance: skills.askModelBelowRelevance,
            ...request.chooser,
            signal: request.signal,
          },
  };
}
