import * as path from 'node:path';
import { GATEWAY_FIND_TOOL_NAME, MCP_SKILL_TOOL_NAMES } from '../../platform/toolNames';
import { launcherCommandLine, launcherInvocation, runsLauncher, type LauncherRuntime } from './launcher';

/**
 * Where each agent runtime reads its prompt-submit hook and its MCP servers, and the entries
 * `toolshed setup` keeps there. One table per runtime and scope, so the CLI, the VS Code command
 * and the docs describe the same files:
 *
 * - Copilot CLI (and VS Code's Copilot harness, the same runtime): hooks from `.github/hooks/*.json`
 *   or `~/.copilot/hooks/*.json` (`{"version": 1, "hooks": {"userPromptSubmitted": [...]}}`);
 *   MCP servers from `~/.copilot/mcp-config.json` or the workspace's `.github/mcp.json`, with
 *   `"deferTools": "never"` so tool search never hides the server's tools.
 * - Claude Code: `hooks.UserPromptSubmit` in `~/.claude/settings.json` or `.claude/settings.json`;
 *   MCP servers in `~/.claude.json` (user) or `.mcp.json` (workspace). Claude Code refuses, in
 *   `claude -p`, every MCP tool no permission rule allows, so the same settings file gets
 *   `permissions.allow` rules (`mcp__<server>__<tool>`) for the servers' read-only tools — skill
 *   search and reads, the gateway's `find_tools` — never the gateway's `call_tool`.
 * - Codex: `[mcp_servers.<name>]` in `~/.codex/config.toml` (`CODEX_HOME` moves it) or the
 *   project's `.codex/config.toml`; its hooks in `hooks.json` beside it, in Claude Code's shape.
 */

export const SETUP_RUNTIMES = ['copilot', 'claude', 'codex'] as const;
export type SetupRuntime = (typeof SETUP_RUNTIMES)[number];
export type SetupScope = 'user' | 'workspace';

const MCP_ENTRY = 'toolshed';
const GATEWAY_ENTRY = 'toolshed-gateway';
/**
 * What the Codex entry of Toolshed's server adds: Codex waits for it (up to 30 s, room for a busy
 * machine; the server answers `initialize` before it loads any skill) and fails loudly without it.
 */
const CODEX_REQUIRED = { required: true, startup_timeout_sec: 30 };
/** Seconds a runtime waits for the hook (the hook answers well within it, or with nothing). */
const HOOK_TIMEOUT_S = 10;

/**
 * One named entry in a map (`mcpServers.toolshed`), one item of a list (a hook), or strings in a
 * list of strings (`permissions.allow`), that setup owns. A string cannot say who wrote it, so
 * setup keeps the strings it added in its own record (`setupRecord.ts`) and removes only those.
 */
export type SetupSlot =
  | { kind: 'map'; path: readonly string[]; name: string; value: Record<string, unknown> }
  | { kind: 'list'; path: readonly string[]; label: string; value: Record<string, unknown> }
  | { kind: 'strings'; path: readonly string[]; label: string; values: readonly string[] };

export interface SetupTarget {
  file: string;
  format: 'json' | 'toml';
  /** The document a new file starts from. */
  template: Record<string, unknown>;
  slots: SetupSlot[];
}

export interface SetupContext {
  runtime: SetupRuntime;
  scope: SetupScope;
  /** The user's home folder (`~`). */
  userHome: string;
  /** The workspace folder (scope `workspace`). */
  workspace: string;
  /** Toolshed's home (`~/.toolshed` or `TOOLSHED_HOME`). */
  toolshedHome: string;
  launcher: LauncherRuntime;
  /** The upstream servers file of the gateway, when `--gateway` asks for its entry. */
  gatewayFile?: string;
  /** `CODEX_HOME`, when set. */
  codexHome?: string;
}

/** Whether an existing entry is one setup wrote: it runs Toolshed's launcher. */
export function isOurs(value: unknown, home: string): boolean {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const texts = [v.command, v.bash, v.powershell, ...(Array.isArray(v.args) ? v.args : [])].filter((t): t is string => typeof t === 'string');
  if (texts.some((text) => runsLauncher(text, home))) return true;
  // A Claude Code hook group: ours when every hook in it is.
  return Array.isArray(v.hooks) && v.hooks.length > 0 && v.hooks.every((hook) => isOurs(hook, home));
}

export function setupTargets(ctx: SetupContext): SetupTarget[] {
  const home = ctx.toolshedHome;
  const hookLine = launcherCommandLine(home, ctx.launcher, ['hook', ctx.runtime]);
  // The server needs the runtime to serve that runtime's skill folders and read its trust record.
  const mcp = launcherInvocation(home, ctx.launcher, ['mcp', '--runtime', ctx.runtime]);
  const gateway = ctx.gatewayFile ? launcherInvocation(home, ctx.launcher, ['mcp', '--upstream', ctx.gatewayFile]) : undefined;
  const user = ctx.scope === 'user';
  const ws = (...parts: string[]) => path.join(ctx.workspace, ...parts);
  const mcpSlots = (shape: (invocation: typeof mcp) => Record<string, unknown>, key = 'mcpServers'): SetupSlot[] => [
    { kind: 'map', path: [key], name: MCP_ENTRY, value: shape(mcp) },
    ...(gateway ? [{ kind: 'map' as const, path: [key], name: GATEWAY_ENTRY, value: shape(gateway) }] : []),
  ];
  const claudeHook = { hooks: [{ type: 'command', command: hookLine, timeout: HOOK_TIMEOUT_S }] };
  // Claude Code's rule for one MCP tool is `mcp__<server>__<tool>`: only the tools that read.
  const claudeAllowed = [
    ...MCP_SKILL_TOOL_NAMES.map((tool) => `mcp__${MCP_ENTRY}__${tool}`),
    ...(gateway ? [`mcp__${GATEWAY_ENTRY}__${GATEWAY_FIND_TOOL_NAME}`] : []),
  ];
  switch (ctx.runtime) {
    case 'copilot': {
      const copilotServer = (invocation: typeof mcp) => ({ type: 'local', ...invocation, tools: ['*'], deferTools: 'never' });
      return [
        {
          file: user ? path.join(ctx.userHome, '.copilot', 'hooks', 'toolshed.json') : ws('.github', 'hooks', 'toolshed.json'),
          format: 'json',
          template: { version: 1, hooks: {} },
          slots: [
            {
              kind: 'list',
              path: ['hooks', 'userPromptSubmitted'],
              label: 'toolshed hook copilot',
              value: { type: 'command', command: hookLine, timeoutSec: HOOK_TIMEOUT_S },
            },
          ],
        },
        {
          file: user ? path.join(ctx.userHome, '.copilot', 'mcp-config.json') : ws('.github', 'mcp.json'),
          format: 'json',
          template: {},
          slots: mcpSlots(copilotServer),
        },
      ];
    }
    case 'claude':
      return [
        {
          file: user ? path.join(ctx.userHome, '.claude', 'settings.json') : ws('.claude', 'settings.json'),
          format: 'json',
          template: {},
          slots: [
            { kind: 'list', path: ['hooks', 'UserPromptSubmit'], label: 'toolshed hook claude', value: claudeHook },
            { kind: 'strings', path: ['permissions', 'allow'], label: "Toolshed's read-only MCP tools", values: claudeAllowed },
          ],
        },
        {
          file: user ? path.join(ctx.userHome, '.claude.json') : ws('.mcp.json'),
          format: 'json',
          template: {},
          slots: mcpSlots((invocation) => ({ type: 'stdio', ...invocation })),
        },
      ];
    case 'codex': {
      const folder = user ? (ctx.codexHome ?? path.join(ctx.userHome, '.codex')) : ws('.codex');
      return [
        {
          file: path.join(folder, 'hooks.json'),
          format: 'json',
          template: {},
          slots: [{ kind: 'list', path: ['hooks', 'UserPromptSubmit'], label: 'toolshed hook codex', value: claudeHook }],
        },
        {
          file: path.join(folder, 'config.toml'),
          format: 'toml',
          template: {},
          // `required`: Codex otherwise starts without a server that failed (or is still starting),
          // and `codex exec` says nothing of it; required, its first turn waits for Toolshed's
          // server, and one that cannot start stops Codex with an error that names it.
          slots: mcpSlots((invocation) => ({ ...invocation, ...(invocation === mcp ? CODEX_REQUIRED : {}) }), 'mcp_servers'),
        },
      ];
    }
  }
}
