import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { createLanguageModelAdapter } from './languageModelAdapter';
import { createModelExtractor } from '../../core/learning/extraction/modelExtractor';
import type { PlannerOutcome } from '../../core/planner/plannerLoop';
import type { ChatModelPort } from '../../core/platform/chatTypes';
import type { PlannerSkills, ToolExecutor } from '../../core/planner/plannerPorts';
import { joinBlocks } from '../../core/planner/promptBlocks';
import type { LearningController } from '../learning/learningController';
import { TurnRecorder } from '../learning/turnRecorder';

/** What a @toolshed turn leaves for learning in `ChatResult.metadata.toolshed.learning`. */
export interface LearningTurnMetadata {
  /** Skills injected or fetched in the turn (👍/👎 rate these). */
  skills: string[];
  /** This answer, so that VS Code's 👍/👎 and Toolshed's own buttons count one rating per answer. */
  turnId?: string;
}

export interface LearningTurn {
  /** Pre-flight budget left for skills once the `<skill_warnings>` block is counted. */
  readonly skillsMaxTokens: number;
  /** Adds `<skill_warnings>` and staleness notes to pre-flight. */
  decorate(skills: PlannerSkills | undefined): PlannerSkills | undefined;
  /** Records the turn's tool calls. */
  wrap(executor: ToolExecutor): ToolExecutor;
  /** Queues post-flight extraction (never awaited) and returns the turn's learning metadata. */
  finish(outcome: PlannerOutcome): LearningTurnMetadata;
}

/**
 * One turn's learning hooks for the planner request. With learning off everything passes
 * through unchanged (and nothing is recorded).
 */
export async function startLearningTurn(
  controller: LearningController,
  turn: { prompt: string; command?: string; sessionId: string; maxTokens: number; model: ChatModelPort; languageModel: vscode.LanguageModelChat },
): Promise<LearningTurn> {
  if (!controller.enabled) {
    return {
      skillsMaxTokens: turn.maxTokens,
      decorate: (s) => s,
      wrap: (e) => e,
      finish: (o) => ({ skills: o.usedSkills.map((s) => s.name), turnId: randomUUID() }),
    };
  }
  const recorder = new TurnRecorder();
  const warnings = controller.service.warnings(turn.prompt);
  const warningTokens = warnings.block ? await turn.model.countTokens(warnings.block) : 0;
  // Warnings share the pre-flight budget: skills get what is left (never less than a small floor).
  const skillsMaxTokens = Math.max(100, turn.maxTokens - warningTokens);
  return {
    skillsMaxTokens,
    decorate(skills) {
      if (!skills) return skills;
      return {
        ...skills,
        async preflight(prompt) {
          const injected = await skills.preflight(prompt);
          const stale = controller.service.stalenessNotes(injected.used.map((u) => u.name));
          return { ...injected, relevantBlock: joinBlocks([injected.relevantBlock, stale, warnings.block]) };
        },
      };
    },
    wrap: (executor) => recorder.wrap(executor),
    finish(outcome) {
      const skills = outcome.usedSkills.map((s) => s.name);
      // Its own token: extraction runs after the answer, when the request's token may be gone.
      const extractor =
        controller.config.extractor === 'model'
          ? createModelExtractor(createLanguageModelAdapter(turn.languageModel, new vscode.CancellationTokenSource().token), {
              personal: () => controller.service.personalContext(),
            })
          : undefined;
      controller.afterTurn(
        {
          sessionId: turn.sessionId,
          request: turn.prompt,
          command: turn.command,
          calls: recorder.calls,
          stoppedBecause: outcome.stoppedBecause,
          skillsUsed: skills,
          at: Date.now(),
        },
        extractor,
      );
      return { skills, turnId: randomUUID() };
    },
  };
}
