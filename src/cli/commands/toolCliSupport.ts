import { readFileSync } from 'node:fs';
import { TOOLSHED_TOOL_NAMES, TOOL_SEARCH_TOOL_NAME } from '../../core/platform/toolNames';
import { MemoryByteStore } from '../../core/platform/memoryByteStore';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import type { FtsEngine } from '../../core/sql/sqlEngine';
import type { RankerOptions } from '../../core/tools/index/toolRanker';
import type { ToolInput } from '../../core/tools/toolRecord';
import { createToolSearchService } from '../../core/tools/toolSearchService';
import type { ToolSearchService } from '../../core/tools/toolSearchService';
import { toolSearchInputJsonSchema } from '../../core/tools/toolSearchSchema';
import type { CliIo } from '../cliCommand';
import type { Embedder } from '../../core/search/embedding/embedder';

/** Shared by `search tools` and `bench tools`: JSONL reading, option parsing, service setup. */

export function readJsonl<T>(file: string): T[] {
  const text = readFileSync(file, 'utf8');
  const out: T[] = [];
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed) return;
    try {
      out.push(JSON.parse(trimmed) as T);
    } catch (error) {
      throw new Error(`${file}:${i + 1}: not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  });
  return out;
}

export interface ParsedArgs {
  flags: Map<string, string | true>;
  positional: string[];
}

/**
 * The `--tools FILE --queries FILE` pair every tool bench needs, or undefined after telling the
 * user (the command then exits 2).
 */
export function toolsAndQueries(flags: ParsedArgs['flags'], command: string, io: CliIo): { toolsFile: string; queriesFile: string } | undefined {
  const toolsFile = flags.get('tools');
  const queriesFile = flags.get('queries');
  if (typeof toolsFile === 'string' && typeof queriesFile === 'string') return { toolsFile, queriesFile };
  io.stderr(`toolshed ${command}: --tools and --queries are required. See --help.\n`);
  return undefined;
}

/** `--name value`, `--name=value`, or `--flag` (when listed in `booleans`). */
export function parseArgs(args: readonly string[], booleans: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      if (eq > 0) flags.set(name, arg.slice(eq + 1));
      else if (booleans.includes(name)) flags.set(name, true);
      else if (i + 1 < args.length) flags.set(name, args[++i]);
      else throw new Error(`--${name} needs a value`);
    } else {
      positional.push(arg);
    }
  }
  return { flags, positional };
}

export function toToolInputs(rows: Array<Record<string, unknown>>): ToolInput[] {
  return rows.map((row, i) => {
    if (typeof row.name !== 'string') throw new Error(`tools line ${i + 1}: "name" must be a string`);
    return {
      name: row.name,
      description: typeof row.description === 'string' ? row.description : '',
      inputSchema: row.inputSchema ?? row.parameters,
      tags: Array.isArray(row.tags) ? row.tags.filter((t): t is string => typeof t === 'string') : [],
      source: typeof row.source === 'string' ? row.source : undefined,
      examples: Array.isArray(row.examples) ? (row.examples as ToolInput['examples']) : undefined,
    };
  });
}

export function parseEngine(value: string | true | undefined): FtsEngine[] | undefined {
  if (value === undefined || value === true) return undefined;
  if (value === 'fts5') return ['fts5', 'fts4', 'none'];
  if (value === 'fts4') return ['fts4', 'none'];
  if (value === 'none') return ['none'];
  throw new Error(`--engine must be fts5, fts4 or none (got "${value}")`);
}

/** A service over an in-memory store where every tool is deferred and searchable. */
export async function cliService(allowedFts: FtsEngine[] | undefined, ranker?: RankerOptions, embedder?: Embedder): Promise<ToolSearchService> {
  const engine = await loadSqlEngine({ allowedFts });
  return createToolSearchService({
    engine,
    store: new MemoryByteStore(),
    config: {
      toolSearch: { alwaysLoadedPatterns: [], defaultLoadingMode: 'deferred', activateOn: 'firstUse', maxSearchResults: 20 },
    },
    ranker,
    embedder,
    saveDelayMs: 60_000,
  });
}

/** A service with the default settings (Toolshed's own tools always visible, the rest deferred). */
export async function defaultService(allowedFts: FtsEngine[] | undefined): Promise<ToolSearchService> {
  const engine = await loadSqlEngine({ allowedFts });
  return createToolSearchService({ engine, store: new MemoryByteStore(), saveDelayMs: 60_000 });
}

/** Toolshed's own tools as a model sees them (tool_search with its real schema; skill tools as stubs). */
export function toolshedOwnTools(): ToolInput[] {
  return [
    {
      name: TOOL_SEARCH_TOOL_NAME,
      description: 'Find tools that are not listed yet: describe the capability you need; call a returned tool by its name.',
      inputSchema: toolSearchInputJsonSchema(),
      source: 'toolshed',
    },
    ...TOOLSHED_TOOL_NAMES.filter((n) => n !== TOOL_SEARCH_TOOL_NAME).map((name) => ({
      name,
      description: `Toolshed ${name.replace('_', ' ')}.`,
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      source: 'toolshed',
    })),
  ];
}
