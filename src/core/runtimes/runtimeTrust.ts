import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { RuntimeId } from './runtimeDescriptors';

/**
 * Whether a workspace is trusted, outside VS Code: Toolshed's one trust rule (a workspace that is
 * not trusted supplies no skills) read from the runtime's own record, or Toolshed's:
 *
 * - Claude Code: `projects["<folder>"].hasTrustDialogAccepted === true` in `~/.claude.json`
 *   (`$CLAUDE_CONFIG_DIR/.claude.json` when set);
 * - Copilot CLI: the folder in `trustedFolders` of `~/.copilot/config.json` (`COPILOT_HOME`
 *   moves it), the file Copilot CLI manages itself, `//` comment lines above the JSON: 1.0.102
 *   runs a workspace's hooks for a folder listed there, and not for one listed only in
 *   `settings.json` (test/runtimes/toolshedHook.test.ts runs the real CLI with this record);
 * - Codex: `[projects."<folder>"]` with `trust_level = "trusted"` in `~/.codex/config.toml`
 *   (`CODEX_HOME` moves it);
 * - Toolshed: the folder in `trustedFolders` of `<toolshed home>/trusted-folders.json`.
 *
 * A runtime's record counts for the workspace folder or a folder above it up to the workspace's
 * git root (as Claude Code resolves it; never further up); Toolshed's own record counts for the
 * folder or any folder above it (as VS Code's trust does). A record that is missing or cannot be
 * read trusts nothing.
 */

const TOOLSHED_TRUST_FILE = 'trusted-folders.json';

export interface TrustInput {
  runtime: RuntimeId;
  /** Absolute workspace folder. */
  workspaceFolder: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Toolshed's home folder (`toolshedHome()`). */
  toolshedHome: string;
}

export interface TrustAnswer {
  trusted: boolean;
  /** Which record trusted it (`Claude Code`, `Toolshed`), or why nothing did, for `toolshed why` and the docs' wording. */
  source: string;
}

const envDir = (env: TrustInput['env'], name: string, fallback: string) => {
  const set = env[name]?.trim();
  return set ? path.resolve(set) : fallback;
};

function readJson(file: string, options: { lineComments?: boolean } = {}): unknown {
  try {
    const text = readFileSync(file, 'utf8');
    // Whole-line `//` comments only (what Copilot CLI writes); a `//` inside a string is left alone.
    return JSON.parse(options.lineComments ? text.replace(/^\s*\/\/.*$/gm, '') : text);
  } catch {
    return undefined;
  }
}

const normal = (folder: string) => path.resolve(folder).replace(/[\\/]+$/, '') || path.sep;

/** The folder and those above it up to its git root (the folder alone outside a repository). */
function upToGitRoot(folder: string): string[] {
  const chain: string[] = [];
  for (let current = normal(folder); ; current = path.dirname(current)) {
    chain.push(current);
    if (existsSync(path.join(current, '.git'))) return chain;
    if (path.dirname(current) === current) return [normal(folder)];
  }
}

/** The folder and every folder above it. */
function upToRoot(folder: string): string[] {
  const chain: string[] = [];
  for (let current = normal(folder); ; current = path.dirname(current)) {
    chain.push(current);
    if (path.dirname(current) === current) return chain;
  }
}

function listedFolders(value: unknown, key: string): Set<string> {
  const list = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return new Set(Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string' && path.isAbsolute(v)).map(normal) : []);
}

function claudeTrusts(input: TrustInput): boolean {
  const file = path.join(input.env.CLAUDE_CONFIG_DIR?.trim() ? path.resolve(input.env.CLAUDE_CONFIG_DIR) : input.home, '.claude.json');
  const projects = (readJson(file) as { projects?: unknown } | undefined)?.projects;
  if (!projects || typeof projects !== 'object') return false;
  const entries = projects as Record<string, unknown>;
  return upToGitRoot(input.workspaceFolder).some(
    (folder) => (entries[folder] as { hasTrustDialogAccepted?: unknown } | undefined)?.hasTrustDialogAccepted === true,
  );
}

function copilotTrusts(input: TrustInput): boolean {
  const file = path.join(envDir(input.env, 'COPILOT_HOME', path.join(input.home, '.copilot')), 'config.json');
  const trusted = listedFolders(readJson(file, { lineComments: true }), 'trustedFolders');
  return upToGitRoot(input.workspaceFolder).some((folder) => trusted.has(folder));
}

/** The `[projects."<path>"]` tables of a Codex `config.toml` whose `trust_level` is `"trusted"` (only what trust needs of TOML). */
export function codexTrustedProjects(toml: string): Set<string> {
  const trusted = new Set<string>();
  let project: string | undefined;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      const header = /^\[\s*projects\s*\.\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*\]\s*(?:#.*)?$/.exec(line);
      project = header ? (header[1] !== undefined ? (JSON.parse(`"${header[1]}"`) as string) : header[2]) : undefined;
      continue;
    }
    if (project && /^trust_level\s*=\s*["']trusted["']\s*(?:#.*)?$/.test(line)) trusted.add(normal(project));
  }
  return trusted;
}

function codexTrusts(input: TrustInput): boolean {
  const file = path.join(envDir(input.env, 'CODEX_HOME', path.join(input.home, '.codex')), 'config.toml');
  let text: string;
  try {
    text = statSync(file).size <= 4 * 1024 * 1024 ? readFileSync(file, 'utf8') : '';
  } catch {
    return false;
  }
  let trusted: Set<string>;
  try {
    trusted = codexTrustedProjects(text);
  } catch {
    return false;
  }
  return upToGitRoot(input.workspaceFolder).some((folder) => trusted.has(folder));
}

const RUNTIME_TRUST: Record<RuntimeId, { name: string; trusts(input: TrustInput): boolean }> = {
  claude: { name: 'Claude Code', trusts: claudeTrusts },
  copilot: { name: 'Copilot CLI', trusts: copilotTrusts },
  codex: { name: 'Codex', trusts: codexTrusts },
};

/** The runtime's trust record first, then Toolshed's own. */
export function workspaceTrust(input: TrustInput): TrustAnswer {
  const runtime = RUNTIME_TRUST[input.runtime];
  if (runtime.trusts(input)) return { trusted: true, source: runtime.name };
  const own = listedFolders(readJson(path.join(input.toolshedHome, TOOLSHED_TRUST_FILE)), 'trustedFolders');
  if (upToRoot(input.workspaceFolder).some((folder) => own.has(folder))) return { trusted: true, source: 'Toolshed' };
  return { trusted: false, source: `neither ${runtime.name} nor Toolshed trusts this folder` };
}
