import * as path from 'node:path';

/**
 * What Toolshed knows about each agent runtime it reaches outside VS Code's extension host: the
 * skill folders the runtime itself reads (so the door indexes the same skills the user sees
 * there), the prompt-submit hook's event on stdin and the answer it expects on stdout. Each entry
 * was read off the runtime's own npm package (the version the tests pin), not guessed:
 *
 * - Copilot CLI 1.0.102 (`@github/copilot`; the runtime of VS Code's Copilot harness): skills from
 *   `.github/skills`, `.agents/skills`, `.claude/skills` in the project and `~/.copilot/skills`,
 *   `~/.agents/skills` for the user (`COPILOT_HOME` moves `~/.copilot`); the `userPromptSubmitted`
 *   hook gets `{prompt, cwd, timestamp}` and may print `{"additionalContext": "…"}`.
 * - Claude Code 2.1 (`@anthropic-ai/claude-code`): `.claude/skills` and `~/.claude/skills`
 *   (`CLAUDE_CONFIG_DIR` moves `~/.claude`); `UserPromptSubmit` gets `{prompt, cwd, session_id,
 *   hook_event_name, …}` and takes `{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
 *   "additionalContext": "…"}}`.
 * - Codex 0.169.0 (`@openai/codex`): `.agents/skills` in the project, `$CODEX_HOME/skills`
 *   (`~/.codex/skills`) and `~/.agents/skills` for the user; its `UserPromptSubmit` hook has
 *   Claude Code's input (`prompt`, `cwd`, plus `turn_id`, `model`) and output schema.
 */

export type RuntimeId = 'copilot' | 'claude' | 'codex';

export const RUNTIME_IDS: readonly RuntimeId[] = ['copilot', 'claude', 'codex'];

/** What a prompt-submit hook event carries that the door uses. */
export interface HookEvent {
  prompt: string;
  /** The folder the runtime runs in (the workspace); absent when the event does not say. */
  cwd?: string;
}

export interface RuntimeDescriptor {
  id: RuntimeId;
  /** For people: `Copilot CLI`, `Claude Code`, `Codex`. */
  displayName: string;
  /** The hook event the door answers (the name in the runtime's hook configuration). */
  hookEvent: string;
  /** Workspace-relative skill folders the runtime reads (used only in a trusted workspace). */
  workspaceSkillFolders: readonly string[];
  /** Absolute user-level skill folders the runtime reads. */
  userSkillFolders(home: string, env: Readonly<Record<string, string | undefined>>): string[];
  /** The hook's stdout for `context` (a prompt block); never called with empty context. */
  hookOutput(context: string): string;
}

const fromEnv = (env: Readonly<Record<string, string | undefined>>, name: string, fallback: string) => {
  const set = env[name]?.trim();
  return set ? path.resolve(set) : fallback;
};

/** Claude Code's answer shape, which Codex shares. */
const userPromptSubmitOutput = (context: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } });

export const RUNTIMES: Readonly<Record<RuntimeId, RuntimeDescriptor>> = {
  copilot: {
    id: 'copilot',
    displayName: 'Copilot CLI',
    hookEvent: 'userPromptSubmitted',
    workspaceSkillFolders: ['.github/skills', '.agents/skills', '.claude/skills'],
    userSkillFolders: (home, env) => [path.join(fromEnv(env, 'COPILOT_HOME', path.join(home, '.copilot')), 'skills'), path.join(home, '.agents', 'skills')],
    hookOutput: (context) => JSON.stringify({ additionalContext: context }),
  },
  claude: {
    id: 'claude',
    displayName: 'Claude Code',
    hookEvent: 'UserPromptSubmit',
    workspaceSkillFolders: ['.claude/skills'],
    userSkillFolders: (home, env) => [path.join(fromEnv(env, 'CLAUDE_CONFIG_DIR', path.join(home, '.claude')), 'skills')],
    hookOutput: userPromptSubmitOutput,
  },
  codex: {
    id: 'codex',
    displayName: 'Codex',
    hookEvent: 'UserPromptSubmit',
    workspaceSkillFolders: ['.agents/skills'],
    userSkillFolders: (home, env) => [path.join(fromEnv(env, 'CODEX_HOME', path.join(home, '.codex')), 'skills'), path.join(home, '.agents', 'skills')],
    hookOutput: userPromptSubmitOutput,
  },
};

export function isRuntimeId(value: string): value is RuntimeId {
  return (RUNTIME_IDS as readonly string[]).includes(value);
}

/** The largest hook event read from stdin; a larger one is refused, not parsed. */
export const MAX_HOOK_EVENT_BYTES = 1024 * 1024;

/**
 * The prompt and folder of a hook event (every runtime names them `prompt` and `cwd`; the Copilot
 * SDK's in-process hooks say `workingDirectory`). Throws with a one-line reason for anything
 * else: not JSON, not an object, no prompt.
 */
export function parseHookEvent(text: string): HookEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the hook event on stdin is not JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('the hook event on stdin is not a JSON object');
  const event = value as Record<string, unknown>;
  if (typeof event.prompt !== 'string') throw new Error('the hook event has no "prompt" string');
  const cwd = [event.cwd, event.workingDirectory].find((v): v is string => typeof v === 'string' && v.length > 0 && path.isAbsolute(v));
  return { prompt: event.prompt, ...(cwd ? { cwd } : {}) };
}
