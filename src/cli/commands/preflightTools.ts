import type { CliCommand } from '../cliCommand';
import { readToolCatalog } from './cliInput';
import { MemoryByteStore } from '../../core/platform/memoryByteStore';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import { createToolSearchService } from '../../core/tools/toolSearchService';
import { toolSearchConfigSchema } from '../../core/config/settingsSchema';
import { roundRelevance } from '../../core/tools/index/absoluteRelevance';
import { escapeForLine } from '../../core/platform/lineText';
import { explainTools } from '../../core/planner/turn/turnExplanation';
import { toolsSection } from '../../core/planner/turn/explainMarkdown';
import { parseArgs, toolshedOwnTools } from './toolCliSupport';

/**
 * `toolshed preflight tools`: what an @toolshed request would activate before its first round,
 * through the extension's own path (a run of the tool-search service with the default settings,
 * `ToolRun.activateForRequest`), so the numbers a user sees here are the ones the chat gets.
 */
export const preflightToolsCommand: CliCommand = {
  path: ['preflight', 'tools'],
  summary: 'Show which tools a request would activate before the first round, with their relevance',
  usage: [
    'Usage: toolshed preflight tools --tools FILE.jsonl [--max N] [--min-relevance X] [--explain] [--json] REQUEST',
    '',
    'FILE.jsonl: one tool a line, {"name", "description", "inputSchema", "tags"?}. Toolshed\'s own tools are added',
    'as in the extension; every other tool is deferred. Prints each tool that would be activated with its absolute',
    "relevance: the request is about the tool (the share of the request's words, weighted by rarity in the catalog, that",
    'the tool contains) and the tool is about the request (the share of its name, tags and description words the request holds).',
    "Defaults are the extension's: --max = toolshed.toolSearch.preActivateTools, --min-relevance = toolshed.toolSearch.minRelevance.",
    "--explain adds every candidate the gate looked at, with its relevance and why it was or was not activated (@toolshed's /why).",
    '--json prints {request, max, min_relevance, activated: [{name, relevance}], explain?}.',
  ].join('\n'),
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { switches: ['json', 'explain'], values: ['tools', 'max', 'min-relevance'] });
    const toolsFile = flags.get('tools');
    const request = positional.join(' ').trim();
    if (typeof toolsFile !== 'string' || !request) {
      io.stderr('toolshed preflight tools: --tools FILE.jsonl and a REQUEST are required. See --help.\n');
      return 2;
    }
    const overrides = {
      ...(flags.has('max') ? { preActivateTools: Number(flags.get('max')) } : {}),
      ...(flags.has('min-relevance') ? { minRelevance: Number(flags.get('min-relevance')) } : {}),
    };
    const parsed = toolSearchConfigSchema.safeParse(overrides);
    if (!parsed.success) {
      const flagOf = (key: PropertyKey | undefined) => (key === 'preActivateTools' ? '--max' : '--min-relevance');
      io.stderr(`toolshed preflight tools: ${parsed.error.issues.map((issue) => `${flagOf(issue.path[0])}: ${issue.message}`).join('; ')}\n`);
      return 2;
    }
    const service = await createToolSearchService({
      engine: await loadSqlEngine({}),
      store: new MemoryByteStore(),
      config: { toolSearch: overrides },
      saveDelayMs: 60_000,
    });
    try {
      service.setTools([...readToolCatalog(toolsFile, io), ...toolshedOwnTools()]);
      const config = service.config.toolSearch;
      const { activated, match } = await service.withRun({}, (run) => ({ activated: run.activateForRequest(request), match: run.lastRequestMatch }));
      const rows = activated.map((tool) => ({ name: tool.name, relevance: roundRelevance(tool.relevance) }));
      // The same explanation /why gives for a turn's pre-activation.
      const explain = flags.has('explain')
        ? explainTools(match, { preActivateTools: config.preActivateTools, minRelevance: config.minRelevance, restricted: false })
        : undefined;
      if (flags.has('json')) {
        io.stdout(
          `${JSON.stringify({ request, max: config.preActivateTools, min_relevance: config.minRelevance, activated: rows, ...(explain ? { explain } : {}) })}\n`,
        );
      } else if (explain) {
        io.stdout(`${toolsSection(explain).map(escapeForLine).join('\n')}\n`);
      } else if (config.preActivateTools === 0) {
        io.stdout('Pre-activation is off (toolshed.toolSearch.preActivateTools is 0).\n');
      } else if (rows.length === 0) {
        // A long request's sentences are held to a stricter minimum than the setting's (requestMatch.ts).
        const minimum = match?.minRelevance ?? config.minRelevance;
        const which = minimum > config.minRelevance ? 'in any one sentence, the minimum for a long request' : 'toolshed.toolSearch.minRelevance';
        io.stdout(`No tool reaches relevance ${minimum} (${which}): the model starts with tool_search.\n`);
      } else {
        for (const row of rows) io.stdout(`${row.relevance.toFixed(2)}  ${escapeForLine(row.name)}\n`);
      }
      return 0;
    } finally {
      await service.dispose();
    }
  },
};
