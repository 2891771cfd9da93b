import type { CliCommand } from '../cliCommand';
import { readToolCatalog } from './cliInput';
import { EMBEDDER_HELP, EMBEDDER_USAGE, embedderFromFlags, reportEndpointFailure, EMBEDDER_SWITCHES, EMBEDDER_VALUES } from './embedderFlag';
import { cliService, parseArgs } from './toolCliSupport';

export const searchToolsCommand: CliCommand = {
  path: ['search', 'tools'],
  summary: 'Search a tool catalog (JSONL) the way tool_search does',
  usage: [
    'Usage: toolshed search tools --tools FILE.jsonl [--search-type fts|regex|exact] [--limit N]',
    `                             ${EMBEDDER_USAGE} QUERY`,
    '',
    ...EMBEDDER_HELP,
    'FILE.jsonl: one tool a line, {"name", "description", "inputSchema", "tags"?}.',
    'Prints the tool_search output as JSON (tools, query, search_type).',
  ].join('\n'),
  async run(args, io) {
    const { flags, positional } = parseArgs(args, {
      switches: [...EMBEDDER_SWITCHES],
      values: ['tools', 'search-type', 'limit', ...EMBEDDER_VALUES],
    });
    const toolsFile = flags.get('tools');
    const query = positional.join(' ').trim();
    if (typeof toolsFile !== 'string' || !query) {
      io.stderr('toolshed search tools: --tools FILE.jsonl and a QUERY are required. See --help.\n');
      return 2;
    }
    const embedder = embedderFromFlags(flags);
    const service = await cliService(undefined, embedder);
    service.setTools(readToolCatalog(toolsFile, io));
    await service.embeddings.settled();
    await embedder?.prepare(query);
    const limit = flags.has('limit') ? Number(flags.get('limit')) : undefined;
    const searchType = flags.get('search-type');
    const run = await service.startRun();
    const result = run.search({
      query,
      ...(typeof searchType === 'string' ? { search_type: searchType } : {}),
      ...(limit !== undefined ? { limit } : {}),
      include_always_loaded: true,
    });
    run.end();
    reportEndpointFailure(embedder, io);
    if (!result.ok) {
      io.stderr(`${result.error}\n`);
      return 1;
    }
    io.stdout(`${JSON.stringify(result.output, null, 2)}\n`);
    return 0;
  },
};
