import { TOOLSHED_TOOL_NAMES, TOOL_SEARCH_TOOL_NAME } from '../../core/platform/toolNames';
import { MemoryByteStore } from '../../core/platform/memoryByteStore';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import type { RankerOptions } from '../../core/tools/index/toolRanker';
import type { ToolInput } from '../../core/tools/toolRecord';
import { escapeForLine } from '../../core/platform/lineText';
import { UsageError } from './cliInput';
import { createToolSearchService } from '../../core/tools/toolSearchService';
import type { ToolSearchService } from '../../core/tools/toolSearchService';
import { toolSearchInputJsonSchema } from '../../core/tools/toolSearchSchema';
import type { CliIo } from '../cliCommand';
import type { Embedder } from '../../core/search/embedding/embedder';

/** Shared by `search tools` and `bench tools`: option parsing, service setup (reading files: cliInput.ts). */

export { toToolInputs } from './cliInput';

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

/** The options a command accepts: `switches` stand alone (`--json`), `values` take one (`--limit 5`, `--limit=5`). */
export interface OptionSpec {
  switches: readonly string[];
  values: readonly string[];
}

/** `--name value`, `--name=value`, or `--flag`; an option the command does not have is a UsageError. */
export function parseArgs(args: readonly string[], spec: OptionSpec): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      checkOption(name, spec);
      if (eq > 0) flags.set(name, arg.slice(eq + 1));
      else if (spec.switches.includes(name)) flags.set(name, true);
      else if (i + 1 < args.length) flags.set(name, args[++i]);
      else throw new UsageError(`--${escapeForLine(name)} needs a value`);
    } else {
      positional.push(arg);
    }
  }
  return { flags, positional };
}

/** Refuses an option the command does not have (a typo would otherwise become words of the request). */
export function checkOption(name: string, spec: OptionSpec): void {
  if (!spec.switches.includes(name) && !spec.values.includes(name)) throw new UsageError(`unknown option --${escapeForLine(name)}`);
}

/** A service over an in-memory store where every tool is deferred and searchable. */
export async function cliService(ranker?: RankerOptions, embedder?: Embedder): Promise<ToolSearchService> {
  const engine = await loadSqlEngine();
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
export async function defaultService(): Promise<ToolSearchService> {
  const engine = await loadSqlEngine();
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
