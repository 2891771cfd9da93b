import type { TaskType } from '../../config/settingsSchema';
import type { SkillRequestContext, SkillScoreAdjuster } from '../../skills/skillRequestContext';
import type { CitationChecks } from '../extraction/citations';
import { staleReasons } from '../extraction/citations';
import { decayFactor } from './decay';
import { adjustedScore, effectivenessPenalty, frameBoost } from './effectiveness';
import type { SkillCounters } from './effectiveness';
import { inferTaskType } from '../extraction/learnedCandidate';

/** What the adjuster knows about a learned skill learning approved. */
export interface ApprovedSkillFacts {
  task_type: TaskType;
  citations: { tools: string[]; files: string[] };
  /** When it was approved or last validated (renews decay). */
  lastValidated: number;
}

export interface AdjusterSources {
  approved(name: string): ApprovedSkillFacts | undefined;
  counters(name: string): (SkillCounters & { last_validated: number }) | undefined;
  /** Domain and frames of any skill (for the chat-command frame boost); only asked when a command is set. */
  frameFacts(name: string): { domain: string; frames: readonly string[] } | undefined;
  /** File checks for citations; tool checks come from the request's tool gate. */
  fileExists(relativePath: string): boolean;
  now(): number;
  /** Told when a learned skill was left out as stale, or its decay applied. */
  onStale(name: string, reasons: string[]): void;
  onDecay(name: string, decay: number, taskType: TaskType): void;
}

/**
 * Re-ranks full-text hits: learned skills × typed decay, −0.1 for a failure ratio
 * above 0.6 after five rated activations, +0.2 when the skill's task type, domain or frames match
 * the request's frame (the chat command or the task type detected from its words). A learned skill
 * whose citations are stale is left out. Scores are rescaled into [0, 1] when the boost exceeds 1.
 */
export function createScoreAdjuster(sources: AdjusterSources): SkillScoreAdjuster {
  return {
    adjust(hits, request) {
      const taskType = inferTaskType([], request.query);
      const command = request.ctx.frame;
      const checks = citationChecks(request.ctx, sources);
      const now = sources.now();
      const out: Array<{ name: string; score: number }> = [];
      for (const hit of hits) {
        const approved = sources.approved(hit.name);
        let decay = 1;
        if (approved) {
          const reasons = staleReasons(approved.citations, checks);
          if (reasons.length) {
            sources.onStale(hit.name, reasons);
            continue;
          }
          const counters = sources.counters(hit.name);
          decay = decayFactor(approved.task_type, Math.max(approved.lastValidated, counters?.last_validated ?? 0), now);
          if (decay < 1) sources.onDecay(hit.name, decay, approved.task_type);
        }
        const facts = command ? sources.frameFacts(hit.name) : undefined;
        const boost = frameBoost({ command, taskType }, { task_type: hit.task_type, domain: facts?.domain ?? '', frames: facts?.frames ?? [] });
        out.push({ name: hit.name, score: adjustedScore(hit.score, { decay, boost, penalty: effectivenessPenalty(sources.counters(hit.name)) }) });
      }
      const max = Math.max(1, ...out.map((o) => o.score));
      return out.map((o) => ({ name: o.name, score: Math.max(0, o.score / max) }));
    },
  };
}

function citationChecks(ctx: SkillRequestContext, sources: AdjusterSources): CitationChecks {
  return {
    // Without a gate (CLI), tools cannot be checked: treat them as available.
    tool: (name) => (ctx.toolGate ? ctx.toolGate(name) : 'visible'),
    fileExists: (file) => sources.fileExists(file),
  };
}
