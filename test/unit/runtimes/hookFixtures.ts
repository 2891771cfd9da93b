import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import type { RuntimeId } from '../../../src/core/runtimes/runtimeDescriptors';
import { tempFolder } from '../../tempFolder';

/** The CLI bundle the tests run, as a runtime runs its hook (`node dist/cli.js hook <runtime>`). */
const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

export interface HookWorld {
  root: string;
  /** The temporary HOME (runtime folders, trust records, `.toolshed`). */
  home: string;
  /** The workspace folder (a git repository). */
  workspace: string;
  toolshedHome: string;
}

export function makeWorld(): HookWorld {
  const root = tempFolder('toolshed-hook-');
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(path.join(workspace, '.git'), { recursive: true });
  return { root, home, workspace, toolshedHome: path.join(home, '.toolshed') };
}

export function writeFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A `<name>/SKILL.md` skill in `folder`. */
export function writeSkill(folder: string, name: string, description: string, body: string): void {
  writeFile(path.join(folder, name, 'SKILL.md'), ['---', `name: ${name}`, `description: ${description}`, '---', '', body, ''].join('\n'));
}

export const PDF_SKILL = {
  name: 'pdf-form-filling',
  description: 'Fill in the fields of a PDF form and flatten the PDF form with pdftk.',
  body: '# Filling PDF forms\n1. List the form fields with `pdftk form.pdf dump_data_fields`.\n2. Write the values into an FDF file and run `pdftk fill_form`.',
  prompt: 'how do I fill in the fields of a PDF form with pdftk?',
};

export const DEPLOY_SKILL = {
  name: 'helm-deploy',
  description: 'Deploy a service to Kubernetes with a helm chart and check the rollout with kubectl.',
  body: '# Deploying with helm\nRun `helm upgrade --install` and then `kubectl rollout status`.',
  prompt: 'deploy the service to Kubernetes with the helm chart and check the kubectl rollout',
};

export const UNRELATED_PROMPT = 'what did the Romans eat for breakfast?';

const NO_BUDGET_MS = 600_000;

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * One hook run as the runtime does it: `node dist/cli.js hook <runtime>` in the workspace with
 * `input` on stdin (left open when `input` is undefined), HOME and TOOLSHED_HOME in the world;
 * the resident hook is off unless `resident` (each test then starts from the folders on disk).
 */
export async function runHook(
  world: HookWorld,
  runtime: string,
  input: string | Buffer | undefined,
  options: { resident?: boolean; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<HookRun> {
  // XDG_RUNTIME_DIR in the world: where the resident hook's socket goes when the door folder's path is too long for one.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: world.home, USERPROFILE: world.home, TOOLSHED_HOME: world.toolshedHome, XDG_RUNTIME_DIR: world.root };
  for (const name of ['COPILOT_HOME', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'TOOLSHED_HOOK_RESIDENT']) delete env[name];
  if (!options.resident) env.TOOLSHED_HOOK_RESIDENT = '0';
  Object.assign(env, options.env);
  // Unless a test is about the budget, the hook gets one no loaded machine reaches: what these
  // tests check is what the hook answers, and a timeout would answer nothing.
  const args = options.args ?? ['--budget-ms', String(NO_BUDGET_MS)];
  const child = spawn(process.execPath, [CLI, 'hook', runtime, ...args], { cwd: world.workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => undefined);
  if (input !== undefined) child.stdin.end(input);
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** The event each runtime sends (Copilot: `{prompt, cwd, timestamp}`; Claude Code and Codex: `UserPromptSubmit`). */
export function eventFor(runtime: RuntimeId, world: HookWorld, prompt: string): string {
  return runtime === 'copilot'
    ? JSON.stringify({ timestamp: Date.now(), cwd: world.workspace, prompt })
    : JSON.stringify({
        session_id: 's1',
        transcript_path: null,
        cwd: world.workspace,
        hook_event_name: 'UserPromptSubmit',
        permission_mode: 'default',
        prompt,
      });
}

/** The context the hook handed the runtime, read from its answer format ('' for no answer). */
export function contextOf(runtime: RuntimeId, stdout: string): string {
  if (!stdout) return '';
  const answer = JSON.parse(stdout) as { additionalContext?: string; hookSpecificOutput?: { hookEventName: string; additionalContext: string } };
  if (runtime === 'copilot') return answer.additionalContext ?? '';
  if (answer.hookSpecificOutput?.hookEventName !== 'UserPromptSubmit') throw new Error(`not a UserPromptSubmit answer: ${stdout}`);
  return answer.hookSpecificOutput.additionalContext;
}

export const doorFolder = (world: HookWorld) => doorFolderFor(world.workspace, world.toolshedHome);

/** Resolves when `file` exists (watching its folder, which must exist). */
async function fileAppears(file: string): Promise<void> {
  await folderChangesUntil(file, () => existsSync(file));
}

/**
 * The pid of the resident hook once its pid file appears. Never 0: `process.kill(0)` would signal
 * the test's own process group.
 */
export async function residentPid(pidFile: string): Promise<number> {
  await fileAppears(pidFile);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${pidFile} holds no pid: ${JSON.stringify(readFileSync(pidFile, 'utf8'))}`);
  return pid;
}

/** The identity of a file's current bytes (a store is replaced whole by a rename: a new inode). */
export function fileVersion(file: string): string {
  const stat = statSync(file);
  return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
}

/** Resolves when `file` is gone, watching its folder. */
export async function fileGone(file: string): Promise<void> {
  await folderChangesUntil(file, () => !existsSync(file));
}

/** Resolves when `file` is no longer the version `version` (`fileVersion`), watching its folder. */
export async function fileReplaced(file: string, version: string): Promise<void> {
  await folderChangesUntil(file, () => existsSync(file) && fileVersion(file) !== version);
}

async function folderChangesUntil(file: string, done: () => boolean): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const watcher = watch(path.dirname(file));
  try {
    while (!done()) await once(watcher, 'change');
  } finally {
    watcher.close();
  }
}
