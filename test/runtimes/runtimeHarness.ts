/**
 * Runs the real agent runtimes — Copilot CLI (`@github/copilot`), Claude Code
 * (`@anthropic-ai/claude-code`), Codex (`@openai/codex`) — the way a user runs them
 * non-interactively, offline, against the scripted model on 127.0.0.1: a fresh HOME per run with
 * the runtime's own config files (hooks, MCP servers, skill folders) written where the runtime
 * reads them, every offline / no-telemetry / no-update switch the runtime has, and nothing that
 * points anywhere but 127.0.0.1. What each runtime sends and where it reads its config is
 * described in docs/harnesses.md ("What each runtime sends the model").
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startScriptedModelServer } from './scriptedModelServer';
import type { ModelScript, ModelTurn, ScriptedModelServer } from './scriptedModelServer';
import { tempFolder } from '../tempFolder';

export type RuntimeName = 'copilot' | 'claude' | 'codex';
export const RUNTIMES: readonly RuntimeName[] = ['copilot', 'claude', 'codex'];

/** The repository root: above this file, or the working folder when this file was bundled elsewhere (the benches). */
function repositoryRoot(): string {
  for (let dir = path.resolve(__dirname); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', '@github', 'copilot'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}
const ROOT = repositoryRoot();
const MODULES = path.join(ROOT, 'node_modules');

export interface SkillFile {
  name: string;
  description: string;
  body?: string;
}

interface StdioServer {
  command: string;
  args: string[];
}

export interface RuntimeSetup {
  /** Skills in the runtime's user-level skill folder. */
  userSkills?: readonly SkillFile[];
  /** Skills in the workspace's skill folder of that runtime. */
  workspaceSkills?: readonly SkillFile[];
  /** A command line run as the runtime's prompt-submit hook (user level, so it runs in an untrusted workspace too). */
  hookCommand?: string;
  /** Stdio MCP servers by name (user level). */
  mcpServers?: Record<string, StdioServer>;
  /** Whether the runtime trusts the workspace folder (its own trust record or flag). */
  trustWorkspace?: boolean;
}

export interface RuntimeRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The model turns the runtime sent during this run, in order. */
  turns: ModelTurn[];
  home: string;
  workspace: string;
}

/** Where each runtime reads skills (relative to HOME, and to the workspace). */
export const SKILL_FOLDERS: Record<RuntimeName, { user: string; workspace: string }> = {
  copilot: { user: '.copilot/skills', workspace: '.github/skills' },
  claude: { user: '.claude/skills', workspace: '.claude/skills' },
  codex: { user: '.codex/skills', workspace: '.agents/skills' },
};

/** Why the runtime's package cannot run here, or undefined when it can. */
export function runtimeUnavailable(runtime: RuntimeName): string | undefined {
  const arch = process.arch;
  const binaries: Record<RuntimeName, string> = {
    copilot: path.join(MODULES, '@github', `copilot-${process.platform}-${arch}`),
    claude: path.join(MODULES, '@anthropic-ai', 'claude-code', 'bin', process.platform === 'win32' ? 'claude.exe' : 'claude.exe'),
    codex: path.join(MODULES, '@openai', `codex-${process.platform}-${arch}`),
  };
  return existsSync(binaries[runtime])
    ? undefined
    : `${runtime}: no build of its npm package for ${process.platform}-${arch} is installed (${path.relative(ROOT, binaries[runtime])})`;
}

/** Skips the running test, saying why, when `runtime`'s package cannot run on this platform. */
export function skipUnlessRunnable(context: Mocha.Context, runtime: RuntimeName): void {
  const reason = runtimeUnavailable(runtime);
  if (!reason) return;
  console.log(`      skipped: ${reason}`);
  context.skip();
}

function writeSkill(folder: string, skill: SkillFile): void {
  const dir = path.join(folder, skill.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\n---\n${skill.body ?? `# ${skill.name}\n`}\n`,
  );
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

const tomlString = (s: string): string => JSON.stringify(s);

/** A fresh HOME and workspace with the runtime's config for `setup`; returns the folders. */
export function prepareRuntime(runtime: RuntimeName, server: ScriptedModelServer, setup: RuntimeSetup): { home: string; workspace: string } {
  const base = tempFolder(`toolshed-rt-${runtime}-`);
  const home = path.join(base, 'home');
  const workspace = path.join(base, 'workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  for (const skill of setup.userSkills ?? []) writeSkill(path.join(home, SKILL_FOLDERS[runtime].user), skill);
  for (const skill of setup.workspaceSkills ?? []) writeSkill(path.join(workspace, SKILL_FOLDERS[runtime].workspace), skill);
  const servers = Object.entries(setup.mcpServers ?? {});
  if (runtime === 'copilot') {
    // The folders a user trusted ("Yes, and remember"): the record a hook can read, unlike `--trust-folder`.
    if (setup.trustWorkspace) writeJson(path.join(home, '.copilot', 'config.json'), { trustedFolders: [workspace] });
    if (setup.hookCommand) {
      writeJson(path.join(home, '.copilot', 'hooks', 'toolshed.json'), {
        version: 1,
        hooks: { userPromptSubmitted: [{ type: 'command', bash: setup.hookCommand, timeoutSec: 60 }] },
      });
    }
    if (servers.length > 0) {
      writeJson(path.join(home, '.copilot', 'mcp-config.json'), {
        mcpServers: Object.fromEntries(
          servers.map(([name, s]) => [name, { type: 'local', command: s.command, args: s.args, tools: ['*'], deferTools: 'never' }]),
        ),
      });
    }
  } else if (runtime === 'claude') {
    if (setup.hookCommand) {
      writeJson(path.join(home, '.claude', 'settings.json'), {
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: setup.hookCommand, timeout: 60 }] }] },
      });
    }
    // The user-scope MCP servers and the folder trust record both live in ~/.claude.json.
    writeJson(path.join(home, '.claude.json'), {
      hasCompletedOnboarding: true,
      mcpServers: Object.fromEntries(servers.map(([name, s]) => [name, { type: 'stdio', command: s.command, args: s.args, env: {} }])),
      projects: setup.trustWorkspace ? { [workspace]: { hasTrustDialogAccepted: true } } : {},
    });
  } else {
    const lines = [
      'model = "gpt-5.4"',
      'model_provider = "scripted"',
      'check_for_update_on_startup = false',
      '[features]',
      'hooks = true',
      // Each of these reaches github.com or chatgpt.com at start-up when on.
      'plugins = false',
      'remote_plugin = false',
      'apps = false',
      'api_key_model_discovery = false',
      'daemon_auto_start = false',
      'in_app_updates = false',
      '[analytics]',
      'enabled = false',
      '[feedback]',
      'enabled = false',
      '[otel]',
      'exporter = "none"',
      'trace_exporter = "none"',
      'metrics_exporter = "none"',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = ${tomlString(`${server.origin}/v1`)}`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
    ];
    for (const [name, s] of servers) {
      // `required`: the first turn waits for the server (and the run fails if it cannot start)
      // rather than going on without its tools while it is still starting.
      lines.push(
        `[mcp_servers.${name}]`,
        `command = ${tomlString(s.command)}`,
        `args = [${s.args.map(tomlString).join(', ')}]`,
        'required = true',
        'startup_timeout_sec = 60',
      );
    }
    if (setup.trustWorkspace) lines.push(`[projects.${tomlString(workspace)}]`, 'trust_level = "trusted"');
    mkdirSync(path.join(home, '.codex'), { recursive: true });
    writeFileSync(path.join(home, '.codex', 'config.toml'), `${lines.join('\n')}\n`);
    if (setup.hookCommand) {
      writeJson(path.join(home, '.codex', 'hooks.json'), {
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: setup.hookCommand, timeout: 60 }] }] },
      });
    }
  }
  return { home, workspace };
}

/** Environment without anything from the caller that could point a runtime at a real service or account. */
function cleanEnv(home: string, server: ScriptedModelServer): NodeJS.ProcessEnv {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'SYSTEMROOT'];
  const env: NodeJS.ProcessEnv = {};
  for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key];
  // The runtimes keep sockets and caches in the temp folder (Claude Code's `claude-<uid>` and
  // `cc-socks`, Node's compile cache, the resident hook's socket folder): theirs is in the run's
  // folder, removed with it.
  const temp = path.join(path.dirname(home), 'tmp');
  mkdirSync(temp, { recursive: true });
  Object.assign(env, { TMPDIR: temp, TEMP: temp, TMP: temp });
  // Every request for another host goes to the scripted server as a proxy, which records and refuses it.
  const proxy = { HTTPS_PROXY: server.origin, HTTP_PROXY: server.origin, NO_PROXY: '127.0.0.1,localhost' };
  const lower = { https_proxy: server.origin, http_proxy: server.origin, no_proxy: '127.0.0.1,localhost' };
  return { ...env, ...proxy, ...lower, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), NO_COLOR: '1', CI: '1' };
}

/**
 * Copilot CLI unpacks its 200 MB package into its cache on first run: one cache for all runs, not
 * one per HOME, kept beside the offline host's (~/.cache/toolshed), not in the temp folder, which
 * the tests leave as they found it.
 */
const COPILOT_CACHE = path.join(os.homedir(), '.cache', 'toolshed', 'copilot-runtime-tests');

/**
 * The runtime's command line and environment. Config folders are left at their defaults under the
 * fresh HOME (no COPILOT_HOME, CLAUDE_CONFIG_DIR or CODEX_HOME), as most users have them, so what
 * `toolshed setup` writes for a user is where the runtime looks.
 */
function command(runtime: RuntimeName, server: ScriptedModelServer, home: string, setup: RuntimeSetup, prompt: string) {
  const env = cleanEnv(home, server);
  if (runtime === 'copilot') {
    Object.assign(env, {
      COPILOT_CACHE_HOME: COPILOT_CACHE,
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: `${server.origin}/v1`,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_WIRE_API: 'completions',
      COPILOT_PROVIDER_API_KEY: 'test-key',
      COPILOT_MODEL: 'gpt-4.1',
      COPILOT_DISABLE_DESKTOP_NOTIFICATIONS: 'true',
      USE_TGREP: 'false',
    });
    const args = [path.join(MODULES, '@github', 'copilot', 'npm-loader.js'), '-p', prompt, '--allow-all-tools', '--no-auto-update'];
    return { file: process.execPath, args, env };
  }
  if (runtime === 'claude') {
    Object.assign(env, {
      ANTHROPIC_BASE_URL: server.origin,
      ANTHROPIC_API_KEY: 'test-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_UPDATES: '1',
      DISABLE_GROWTHBOOK: '1',
      CLAUDE_CODE_ENABLE_TELEMETRY: '0',
      // Claude Code defers MCP tools behind its ToolSearch tool by default; off, the model gets them in `tools`.
      ENABLE_TOOL_SEARCH: 'false',
      // In -p mode the first request goes out without a server still starting (the model gets a
      // WaitForMcpServers tool instead); wait for it, as an interactive session does.
      CLAUDE_CODE_MCP_STARTUP_WAIT_MS: '60000',
    });
    const args = ['-p', prompt, '--model', 'claude-sonnet-4-5'];
    // Without a prompt to answer, a tool the user did not allow is refused; allow the servers this
    // harness configured itself (what `toolshed setup` writes must allow its own, see toolshedSetup.test.ts).
    const servers = Object.keys(setup.mcpServers ?? {});
    if (servers.length > 0) args.push('--allowedTools', ...servers.map((name) => `mcp__${name}`));
    return { file: path.join(MODULES, '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'), args, env };
  }
  Object.assign(env, { SCRIPTED_API_KEY: 'test-key' });
  const args = [
    path.join(MODULES, '@openai', 'codex', 'bin', 'codex.js'),
    'exec',
    '--skip-git-repo-check',
    '--ephemeral',
    // Codex runs a hook only once its hash is recorded as trusted (an interactive review); the
    // test wrote the hook itself, which is what this flag is for.
    '--dangerously-bypass-hook-trust',
    prompt,
  ];
  return { file: process.execPath, args, env };
}

/**
 * The context a prompt-submit hook added to this request, as the runtime framed it, or undefined
 * when there is none: Copilot CLI appends it to the prompt's user message in a `<system_reminder>`;
 * Claude Code puts "UserPromptSubmit hook additional context: …" in a `<system-reminder>` of the
 * prompt's message; Codex sends it as a developer message after the prompt.
 */
export function hookContextIn(runtime: RuntimeName, turn: ModelTurn): string | undefined {
  if (runtime === 'claude') {
    const found = [...turn.allText.matchAll(/UserPromptSubmit hook additional context: ([\s\S]*?)(?:\n<\/system-reminder>|$)/g)];
    return found.length > 0 ? found.map((m) => m[1] ?? '').join('\n') : undefined;
  }
  const body = JSON.parse(turn.raw) as { messages?: Array<Record<string, unknown>>; input?: Array<Record<string, unknown>> };
  if (runtime === 'copilot') {
    const users = (body.messages ?? []).filter((m) => m.role === 'user');
    const last = users[users.length - 1];
    const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
    return /<system_reminder>\n([\s\S]*)\n<\/system_reminder>\s*$/.exec(text)?.[1];
  }
  const input = body.input ?? [];
  let lastUser = -1;
  input.forEach((item, i) => {
    if (item.role === 'user') lastUser = i;
  });
  const after = input.slice(lastUser + 1).filter((item) => item.role === 'developer');
  if (after.length === 0) return undefined;
  return after
    .flatMap((item) => (Array.isArray(item.content) ? (item.content as Array<{ text?: string }>) : []))
    .map((part) => part.text ?? '')
    .join('\n');
}

const running = new Set<ChildProcess>();

/** Kills every runtime process (and its process group) still running: call it in afterEach. */
export function killRuntimes(): void {
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
  running.clear();
}

const folders: string[] = [];
/**
 * Removes the temporary HOMEs and workspaces of every run: call it in afterEach. A resident hook a
 * run started is detached (killing the runtime's process group leaves it) and would still be
 * writing in its door folder while the folder is removed: every process whose command line names
 * the run's folder is killed first (read from /proc where there is one; elsewhere the resident
 * hook's pid file).
 */
function removeRuntimeFolders(): void {
  for (const folder of folders.splice(0)) {
    const base = path.dirname(folder);
    for (const pid of processesNaming(base)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(base, { recursive: true, force: true, maxRetries: 5 });
  }
}

function processesNaming(base: string): number[] {
  if (existsSync('/proc/self/cmdline')) {
    return readdirSyncOrEmpty('/proc')
      .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
      .filter((name) => readOrEmpty(path.join('/proc', name, 'cmdline')).includes(base))
      .map(Number);
  }
  const workspaces = path.join(base, 'home', '.toolshed', 'workspaces');
  return readdirSyncOrEmpty(workspaces).flatMap((door) =>
    readdirSyncOrEmpty(path.join(workspaces, door))
      .filter((name) => /^hook\.[a-z]+\.pid$/.test(name))
      .map((name) => Number(readOrEmpty(path.join(workspaces, door, name)).trim()))
      .filter((pid) => Number.isInteger(pid) && pid > 0),
  );
}

function readdirSyncOrEmpty(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // gone, or not ours to read
  }
}

/** Runs `toolshed setup <runtime> --user` (the built CLI) in `home`, as the user would before starting the runtime. */
export function runToolshedSetup(runtime: RuntimeName, home: string): Promise<{ exitCode: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'setup', runtime, '--user'], {
    env: { PATH: process.env.PATH, HOME: home, USERPROFILE: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, output }));
  });
}

/** Runs `runtime` once with `prompt` in a fresh HOME and workspace; resolves when it exits. */
export async function runRuntime(runtime: RuntimeName, server: ScriptedModelServer, prompt: string, setup: RuntimeSetup = {}): Promise<RuntimeRun> {
  const { home, workspace } = prepareRuntime(runtime, server, setup);
  folders.push(home);
  return runPrepared(runtime, server, prompt, setup, home, workspace);
}

/** A fresh HOME and workspace for `setup`, removed by removeRuntimeFolders. */
export function prepareTracked(runtime: RuntimeName, server: ScriptedModelServer, setup: RuntimeSetup): { home: string; workspace: string } {
  const prepared = prepareRuntime(runtime, server, setup);
  folders.push(prepared.home);
  return prepared;
}

export function runPrepared(
  runtime: RuntimeName,
  server: ScriptedModelServer,
  prompt: string,
  setup: RuntimeSetup,
  home: string,
  workspace: string,
): Promise<RuntimeRun> {
  const first = server.requests.length;
  const { file, args, env } = command(runtime, server, home, setup, prompt);
  const child = spawn(file, args, { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => {
      running.delete(child);
      const turns = server.requests.slice(first).flatMap((r) => (r.turn ? [r.turn] : []));
      resolve({ exitCode, stdout, stderr, turns, home, workspace });
    });
  });
}

/**
 * A scripted model per test, and the clean-up after each test of the suite it is called in: the
 * runtimes started killed, the model server closed, the runtimes' folders removed.
 */
export function scriptedModelPerTest(): (script?: ModelScript) => Promise<ScriptedModelServer> {
  let server: ScriptedModelServer | undefined;
  afterEach(async () => {
    killRuntimes();
    await server?.close();
    server = undefined;
    removeRuntimeFolders();
  });
  return async (script) => (server = await startScriptedModelServer(script));
}
