import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryEventSink, MemoryLogger } from '../../../src/core/platform/basicPorts';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';
import { engine } from '../skills/helpers';
import type { ToolExamplesConfig, ToolSearchConfig, ToolsConfig } from '../../../src/core/config/settingsSchema';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import type { ToolSearchService } from '../../../src/core/tools/toolSearchService';

/** One sql.js engine shared across tests (loading wasm takes a moment). */
export const engineWith = engine;

export interface Harness {
  service: ToolSearchService;
  store: MemoryByteStore;
  events: MemoryEventSink;
  logger: MemoryLogger;
}

export async function makeService(
  options: {
    toolSearch?: Partial<ToolSearchConfig>;
    toolExamples?: Partial<ToolExamplesConfig>;
    toolsConfig?: Partial<ToolsConfig>;
    /** Another sql.js engine than the shared one. */
    engine?: SqlEngine;
    tools?: ToolInput[];
    store?: MemoryByteStore;
    builtinExamples?: Record<string, ToolInput['examples'] & object>;
  } = {},
): Promise<Harness> {
  const store = options.store ?? new MemoryByteStore();
  const events = new MemoryEventSink();
  const logger = new MemoryLogger();
  let t = 1_000;
  const service = await createToolSearchService({
    engine: options.engine ?? (await engineWith()),
    store,
    events,
    logger,
    clock: { now: () => t++ },
    config: { toolSearch: options.toolSearch, toolExamples: options.toolExamples, tools: options.toolsConfig },
    builtinExamples: options.builtinExamples,
    saveDelayMs: 0,
  });
  if (options.tools) service.setTools(options.tools);
  return { service, store, events, logger };
}

export const SAMPLE_TOOLS: ToolInput[] = [
  {
    name: 'mcp_github_create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: {
      type: 'object',
      properties: { repo: { type: 'string', description: 'owner/name' }, title: { type: 'string' }, body: { type: 'string' } },
      required: ['repo', 'title'],
    },
    source: 'mcp',
  },
  {
    name: 'mcp_github_list_issues',
    description: 'List issues of a GitHub repository, filtered by state.',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' }, state: { type: 'string', enum: ['open', 'closed'] } } },
    tags: ['read'],
  },
  {
    name: 'mcp_github_merge_pull_request',
    description: 'Merge a pull request.',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' }, number: { type: 'integer' } } },
  },
  {
    name: 'copilot_readFile',
    description: 'Read the contents of a file in the workspace.',
    inputSchema: { type: 'object', properties: { filePath: { type: 'string' } }, required: ['filePath'] },
    tags: ['read'],
    source: 'builtin',
  },
  {
    name: 'copilot_findFiles',
    description: 'Find files by glob pattern.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    source: 'builtin',
  },
  {
    name: 'weather.get_forecast',
    description: 'Get the weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } },
    tags: ['pure'],
  },
  {
    name: 'run_in_terminal',
    description: 'Run a shell command in the terminal.',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
  },
  { name: 'tool_search', description: 'Search for tools.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } },
];
