import { existsSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import type { ByteStore } from '../../core/platform/ports';
import { MemoryByteStore } from '../../core/platform/memoryByteStore';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import type { SqlEngine } from '../../core/sql/sqlEngine';
import { createHeadlessSkillService } from '../../core/skills/headlessSkillService';
import type { SkillService } from '../../core/skills/skillService';
import { folderPack } from '../../core/skills/packs/skillPackSources';
import type { ResolvedSkillPack } from '../../core/skills/packs/skillPackSources';
import type { CliIo } from '../cliCommand';
import { escapeForLine } from '../../core/platform/lineText';
import { UsageError } from './cliInput';
import { checkOption } from './toolCliSupport';
import type { OptionSpec } from './toolCliSupport';

/** Shared plumbing of the skill CLI commands (argument parsing, an in-memory service over packs). */

export interface SkillArgs {
  packs: string[];
  flags: Map<string, string | true>;
  positional: string[];
}

/**
 * `--packs DIR…` takes the following arguments that are existing paths or look like one (hold a
 * `/` or `\\`, or start with `.` or `~`), so a missing folder is reported instead of silently
 * becoming a word of the request; other options as parseArgs (an unknown one is a UsageError).
 */
export function parseSkillArgs(args: readonly string[], spec: OptionSpec): SkillArgs {
  const out: SkillArgs = { packs: [], flags: new Map(), positional: [] };
  const looksLikePath = (arg: string) => existsSync(arg) || /[\\/]/.test(arg) || /^[.~]/.test(arg);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      out.positional.push(...args.slice(i + 1));
      break;
    }
    if (arg === '--packs' || arg.startsWith('--packs=')) {
      if (arg !== '--packs') out.packs.push(arg.slice('--packs='.length));
      const before = out.packs.length;
      while (i + 1 < args.length && !(args[i + 1] ?? '').startsWith('--') && looksLikePath(args[i + 1] ?? '')) out.packs.push(args[++i] ?? '');
      if (arg === '--packs' && out.packs.length === before) throw new UsageError('--packs needs at least one folder');
      continue;
    }
    if (arg.startsWith('--')) {
      const [key, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      checkOption(key, spec);
      if (inline !== undefined) out.flags.set(key, inline);
      else if (spec.switches.includes(key)) out.flags.set(key, true);
      else if (i + 1 < args.length) out.flags.set(key, args[++i] ?? '');
      else throw new UsageError(`--${escapeForLine(key)} needs a value`);
      continue;
    }
    out.positional.push(arg);
  }
  return out;
}

/** Refuses a `--packs` entry that is missing or not a folder (a file given as a pack is an error, not an empty pack). */
export function checkPackFolders(dirs: readonly string[]): void {
  for (const dir of dirs) {
    let stats: Stats;
    try {
      stats = statSync(dir);
    } catch {
      throw new UsageError(`--packs ${escapeForLine(dir)}: no such folder`);
    }
    if (!stats.isDirectory()) throw new UsageError(`--packs ${escapeForLine(dir)} is not a folder (a pack is a folder of skill files)`);
  }
}

export function packsFromDirs(dirs: readonly string[]): ResolvedSkillPack[] {
  return dirs.map((dir, i) => {
    const root = path.resolve(dir);
    const base =
      path
        .basename(root)
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[^a-z0-9]+/, '') || 'local';
    return folderPack(dirs.length > 1 && i > 0 ? `${base}-${i + 1}` : base, root);
  });
}

/** Loads pack folders into the service, printing each file's errors (file:line:column) on stderr. */
export async function loadPacksReportingErrors(service: SkillService, dirs: readonly string[], io: CliIo): Promise<void> {
  const summary = await service.loadPacks(packsFromDirs(dirs));
  for (const problem of summary.problems.filter((p) => p.severity === 'error'))
    io.stderr(`${escapeForLine(problem.file)}:${problem.line}:${problem.column}: error: ${escapeForLine(problem.message)}\n`);
}

/**
 * The CLI's skill service: in memory unless `store` is a storage folder, on `engine` or a new one;
 * `requires` checks read this process's environment.
 */
export async function cliSkillService(options: { store?: ByteStore; engine?: SqlEngine } = {}): Promise<SkillService> {
  const engine = options.engine ?? (await loadSqlEngine());
  return createHeadlessSkillService({ engine, store: options.store ?? new MemoryByteStore(), env: process.env });
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}
