import type { NameFinder } from '../search/nameFinder';
import type { TaskType } from '../config/settingsSchema';
import type { ToolGate } from './render/toolReferenceGate';

/** Who is asking. Build one per request. */
export interface SkillRequestContext {
  scope?: { tenantId?: string; projectId?: string };
  /** The tool policy: names it calls `denied` never appear in output. */
  toolGate?: ToolGate;
  /** Every registered tool name, for gating plain-word tool names (many tools: a NameFinder built once). */
  knownToolNames?: Iterable<string> | NameFinder;
  /** False in an untrusted workspace: skills from workspace packs are neither returned nor injected. */
  includeWorkspacePacks: boolean;
  /** Extra names pinned into the directory (besides the packs' pinnedSkillNames). */
  pinnedNames?: readonly string[];
  /** The request's frame (the chat command), for the score adjuster's frame boost. */
  frame?: string;
  /**
   * Agent mode only: SKILL.md skills VS Code's own agent skills already offer there. They are
   * left out of every answer (`skill_get` says where they are); @toolshed never sets it.
   */
  nativeSkillNames?: ReadonlySet<string>;
  /**
   * Skills the user retired in this workspace (the Ledger view's Retire): left out of every
   * answer and of pre-flight, pinned or not; `skill_get` says they are retired.
   */
  retiredNames?: ReadonlySet<string>;
}

/**
 * A port for re-ranking full-text hits after relevance (learning: decay, effectiveness, frame
 * boost). It may leave a hit out (e.g. a learned skill whose citations went stale). Scores it
 * returns are on the same [0, 1] contract.
 */
export interface SkillScoreAdjuster {
  adjust(
    hits: ReadonlyArray<{ name: string; task_type: TaskType; score: number }>,
    request: { query: string; ctx: SkillRequestContext },
  ): Array<{ name: string; score: number }>;
}
