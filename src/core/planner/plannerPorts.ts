import type { CancellationSignal, ToolDefinition } from '../platform/chatTypes';
import type { GatedTool } from '../tools/requestMatch';
import type { GateVerdict } from '../search/gateVerdict';

/**
 * The planner's view of one run's tool catalog (implemented over the tool-search service).
 * Keeping it this small lets the loop be tested with fakes and keeps policy in one place.
 */
export interface PlannerToolRun {
  /** Definitions to send this round: always-visible + Toolshed's own + activated in this run. */
  visibleDefinitions(): Promise<ToolDefinition[]>;
  /** Discovery guidance for the prompt (`<tool_discovery>`), when enabled. */
  promptBlocks(): string[];
  /** Definitions of every tool the run may use — what sending everything would cost. */
  allDefinitions(): Promise<ToolDefinition[]>;
  /** Runs a `tool_search` call; activation on discovery happens inside when configured. */
  search(input: unknown): Promise<{ resultText: string; found: string[]; activated: string[] }>;
  /**
   * Resolves a call to a tool that is not Toolshed's own: `ok` (activating it on first use
   * when allowed) or the one "no such tool" message, identical for denied, hidden and unknown.
   */
  resolveCall(name: string): Promise<{ ok: true; activated: boolean } | { ok: false; message: string }>;
  /** The message for a tool that does not exist here — the same text `resolveCall` gives. */
  unknownToolMessage(name: string): string;
  /** Counts a completed call (for the Activated Tools view) and whether it worked (for learning from picks). */
  recordCall(name: string, succeeded: boolean): void;
  /**
   * Activates deferred tools a skill named, before the first round (in the run's activation
   * scope); returns the names actually activated (at most `max`) — never one the run may not
   * use, never one already sent. Absent = the catalog cannot pre-activate.
   */
  preActivate?(names: readonly string[], max: number, reason: string): Promise<string[]>;
  /**
   * Pre-flight for tools: activates the deferred tools whose absolute relevance to the request
   * passes the gate (at most `toolshed.toolSearch.preActivateTools`), in the run's activation
   * scope; returns them with their relevance. Absent = the catalog cannot match requests.
   */
  activateForRequest?(request: string): Promise<GatedTool[]>;
  /**
   * Embeds the turn's request once when hybrid ranking uses an endpoint, so skill pre-flight,
   * pre-activation and every `tool_search` of the turn share one vector; never rejects (down =
   * lexical). Absent or a no-op with an in-process embedder or none.
   */
  prepareTurn?(request: string): Promise<void>;
  /**
   * The `select:` tool_search that would load exactly these tools, as the query and the result
   * text the model would read — computed, never run or logged (for the footer's saving line).
   */
  selectionExchange?(names: readonly string[]): Promise<{ query: string; resultText: string } | undefined>;
}

export interface SkillUse {
  name: string;
  title?: string;
  /** Absolute path of the skill's file, when it has one (shown as a reference). */
  path?: string;
  /** Why it is active: `pinned`, `chosen by the model` or `best match` (absent for skill_get). */
  reason?: string;
  /** Absolute relevance to the request in [0, 1] (pre-flight matches; absent for pinned skills and skill_get). */
  relevance?: number;
}

export interface PreflightSkills {
  pinnedBlock: string;
  relevantBlock: string;
  used: SkillUse[];
  /** Pinned or relevant skills left out to stay within the budget (told to the user). */
  omitted: string[];
  /** Tokens of the active-skill selection call to the model (`model` / `hybrid`; absent otherwise). */
  selectionTokens?: number;
  /** The model that chose the active skills, when one was asked (named in the footer). */
  selectionModel?: string;
  /** Model requests made to choose the skills (absent: 1 when `selectionTokens` > 0, else 0). */
  selectionRequests?: number;
  /** Shown to the user when the model's choice of skills was not used (fallback to search order). */
  note?: string;
  /** Tools the injected skills name that the run may use, pinned skills' first (never a denied or hidden one). */
  suggestedTools?: string[];
  /** What pre-flight looked at and decided (Explain Last Turn); absent when it searched nothing. */
  record?: SkillPreflightRecord;
}

/** What skill pre-flight looked at and decided, as the turn used it (Explain Last Turn). */
export interface SkillPreflightRecord {
  selection: 'search' | 'model' | 'hybrid';
  /** Every candidate the relevance gate looked at, best first, with its relevance (none for an exact match) and the gate's verdict. */
  ranked: Array<{ name: string; relevance?: number; verdict?: GateVerdict; corroborated?: false }>;
  /** `model` / `hybrid`: the candidates the choice was made among (after the gate). */
  offered?: string[];
  /** `model` / `hybrid`: whether a model was asked (or would have been, without one), which, what it chose, or why its answer was not used. */
  model?: { asked: boolean; wouldAsk: boolean; name?: string; chose: string[]; fallback?: string };
}

/** The planner's view of skills (implemented over the skill service, request-scoped). */
export interface PlannerSkills {
  /**
   * Pre-flight, under one token budget: the skills the user pinned (`/skill name`, the Skill
   * Directory) first, then the most relevant skills for the prompt in what remains.
   */
  preflight(prompt: string): Promise<PreflightSkills>;
  /** Discovery guidance (`<skill_discovery>`). */
  promptBlocks(): string[];
  /** The bounded `<skill_directory>` block ('' when disabled). */
  directory(): Promise<string>;
  /** Handles `skill_search`, `skill_get` and `skill_list` calls. */
  handle(toolName: string, input: unknown): Promise<{ resultText: string; used: SkillUse[] }>;
  /** Whether `toolName` is one of the skill tools this object handles. */
  handles(toolName: string): boolean;
}

/** Runs a tool that is not Toolshed's own (VS Code: `vscode.lm.invokeTool` with the request token). */
export interface ToolExecutor {
  invoke(name: string, input: unknown, signal: CancellationSignal): Promise<{ text: string; isError?: boolean }>;
}

/** What a person watching the chat sees while the loop runs. */
export interface PlannerProgress {
  /** A short status line ("Searching tools for …"). */
  progress(message: string): void;
  /** Streamed model text. */
  markdown(text: string): void;
  /** A skill file that informed the answer. */
  reference(skill: SkillUse): void;
}
