import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

/**
 * The stable launcher: a copy of the bundled CLI and what it reads at run time in
 * `<toolshed home>/bin/`, a folder with no version in its name. Hook and MCP entries run
 * `node "<home>/bin/cli.js" …`, so they keep working where only the VSIX is installed, and after
 * an update moves or deletes the extension's own folder; the extension refreshes the copy when
 * its version changes.
 */

/** The program and the CLI it loads, and what the CLI reads beside itself at run time (sql.js's wasm, the vocabulary, the word vectors, the parser thread). */
export const LAUNCHER_FILES = ['cli.js', 'cliMain.js', 'sql-wasm.wasm', 'related-terms.txt', 'word-vectors.bin', 'parseWorker.js'] as const;
/** What the entries run: it loads the CLI or the hook's fast path beside it (src/cli/entry.ts). */
const PROGRAM = 'cli.js';
/** Copied when the bundle has them: the prompt-submit hook's fast path (it asks the resident hook before the CLI loads). */
const OPTIONAL_FILES = ['hookClient.js'] as const;
/** The built-in skill pack, copied beside the files so the hook and the MCP server serve it too. */
const PACKS_FOLDER = 'skill-packs';
const VERSION_FILE = 'launcher.json';

export interface LauncherSource {
  /** The folder holding the bundled `cli.js` and its files (the extension's or the checkout's `dist/`). */
  distDir: string;
  /** The folder holding `skill-packs/` (the extension's root), when it ships one. */
  packsRoot?: string;
  version: string;
}

/** The launcher folder of a Toolshed home. */
function launcherDir(home: string): string {
  return path.join(home, 'bin');
}

/** The version the launcher folder holds, or undefined when it is missing or unreadable. */
function installedVersion(dir: string): string | undefined {
  try {
    const value = JSON.parse(readFileSync(path.join(dir, VERSION_FILE), 'utf8')) as { version?: unknown };
    return typeof value.version === 'string' && LAUNCHER_FILES.every((file) => existsSync(path.join(dir, file))) ? value.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Copies the CLI into `<home>/bin/` unless the same version is already there whole. Each file is
 * written to a temp name and renamed over the old one, so a hook that starts during the refresh
 * runs either the old or the new file. Returns whether anything was copied.
 */
export function installLauncher(home: string, source: LauncherSource): { dir: string; installed: boolean } {
  const dir = launcherDir(home);
  if (installedVersion(dir) === source.version) return { dir, installed: false };
  const missing = LAUNCHER_FILES.filter((file) => !existsSync(path.join(source.distDir, file)));
  if (missing.length) throw new Error(`The bundled CLI is incomplete in ${source.distDir} (missing ${missing.join(', ')}): build it first (node esbuild.mjs).`);
  mkdirSync(dir, { recursive: true });
  const unique = `${process.pid}.${randomBytes(4).toString('hex')}`;
  // The program (`cli.js`) last: until it is replaced, the old one runs with what it expects, and
  // once it is, everything it loads (the CLI, the hook's fast path) is already the new version's.
  const files = [...LAUNCHER_FILES, ...OPTIONAL_FILES.filter((name) => existsSync(path.join(source.distDir, name)))].filter((file) => file !== PROGRAM);
  for (const file of [...files, PROGRAM]) {
    const temp = path.join(dir, `.${file}.${unique}.tmp`);
    copyFileSync(path.join(source.distDir, file), temp);
    renameSync(temp, path.join(dir, file));
  }
  const packs = source.packsRoot ? path.join(source.packsRoot, PACKS_FOLDER) : undefined;
  if (packs && existsSync(packs)) {
    const temp = path.join(dir, `.${PACKS_FOLDER}.${unique}.tmp`);
    cpSync(packs, temp, { recursive: true });
    rmSync(path.join(dir, PACKS_FOLDER), { recursive: true, force: true });
    renameSync(temp, path.join(dir, PACKS_FOLDER));
  }
  writeFileSync(path.join(dir, VERSION_FILE), `${JSON.stringify({ version: source.version })}\n`);
  return { dir, installed: true };
}

/**
 * On the extension's activation: brings an installed launcher up to `source`'s version. Does
 * nothing where setup never ran (no launcher to keep current). Returns whether it copied.
 */
export function refreshLauncher(home: string, source: LauncherSource): boolean {
  const dir = launcherDir(home);
  if (!existsSync(path.join(dir, VERSION_FILE)) || installedVersion(dir) === source.version) return false;
  return installLauncher(home, source).installed;
}

/** How an entry starts the launcher: `node`, or an Electron binary run as Node (VS Code's own runtime, where no `node` is on PATH). */
export interface LauncherRuntime {
  executable: string;
  /** Set `ELECTRON_RUN_AS_NODE=1` for it. */
  electron: boolean;
}

/**
 * `node` when the PATH has one (what a runtime's shell finds), else `fallback` by its path: the
 * running Node for the CLI, VS Code's own runtime (run as Node) for the extension.
 */
export function nodeRuntime(fallback: LauncherRuntime, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): LauncherRuntime {
  const names = platform === 'win32' ? ['node.exe', 'node.cmd'] : ['node'];
  const pathList = env.PATH ?? env.Path ?? '';
  const found = pathList.split(path.delimiter).some((dir) => dir && names.some((name) => existsSync(path.join(dir, name))));
  return found ? { executable: 'node', electron: false } : fallback;
}

/** The command and arguments an MCP entry runs. */
export function launcherInvocation(
  home: string,
  runtime: LauncherRuntime,
  args: readonly string[],
): { command: string; args: string[]; env?: Record<string, string> } {
  return {
    command: runtime.executable,
    args: [path.join(launcherDir(home), 'cli.js'), ...args],
    ...(runtime.electron ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {}),
  };
}

/** The same as one shell command line (what hook entries hold). */
export function launcherCommandLine(home: string, runtime: LauncherRuntime, args: readonly string[], platform: NodeJS.Platform = process.platform): string {
  // cmd.exe takes backslashes as they are; POSIX shells need \, ", $ and ` escaped inside double quotes.
  const quote = (text: string) => (/^[A-Za-z0-9_./:=-]+$/.test(text) ? text : platform === 'win32' ? `"${text}"` : `"${text.replace(/(["\\$`])/g, '\\$1')}"`);
  const invocation = launcherInvocation(home, runtime, args);
  const line = [invocation.command, ...invocation.args].map(quote).join(' ');
  if (!runtime.electron) return line;
  return platform === 'win32' ? `set ELECTRON_RUN_AS_NODE=1&& ${line}` : `ELECTRON_RUN_AS_NODE=1 ${line}`;
}

/**
 * Whether a command line or argument runs a Toolshed launcher — this home's, or one under a
 * `.toolshed` folder (a home moved with `TOOLSHED_HOME` since) — which is how setup knows the
 * entries it wrote in formats that have no room for a marker of their own.
 */
export function runsLauncher(text: string, home: string): boolean {
  return text.includes(path.join(launcherDir(home), 'cli.js')) || /[\\/]\.toolshed[\\/]bin[\\/]cli\.js/i.test(text);
}
