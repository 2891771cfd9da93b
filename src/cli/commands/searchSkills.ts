import { escapeForLine } from '../../core/platform/lineText';
import type { CliCommand } from '../cliCommand';
import { EMBEDDER_HELP, EMBEDDER_USAGE, embedderFromFlags, reportEndpointFailure, EMBEDDER_SWITCHES, EMBEDDER_VALUES } from './embedderFlag';
import { cliSkillService, loadPacksReportingErrors, parseSkillArgs } from './skillCliSupport';
import { checkPackFolders } from './skillCliSupport';

export const searchSkillsCommand: CliCommand = {
  path: ['search', 'skills'],
  summary: 'Search skills in pack folders (same code as skill_search)',
  usage: [
    'Usage: toolshed search skills --packs DIR… [--limit N] [--search-type fts|regex|exact] QUERY [--json]',
    `                              ${EMBEDDER_USAGE}`,
    '',
    ...EMBEDDER_HELP,
    '  With an endpoint, the text of every skill searched (secrets redacted) is sent to it to be embedded.',
    '--json prints the skill_search output {skills:[{name,title,trigger,task_type,score}], query, search_type}.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: ['json', ...EMBEDDER_SWITCHES], values: ['limit', 'search-type', 'engine', ...EMBEDDER_VALUES] });
    const query = parsed.positional.join(' ').trim();
    if (parsed.packs.length === 0 || !query) {
      io.stderr('toolshed search skills: --packs DIR… and a QUERY are required. See --help.\n');
      return 2;
    }
    checkPackFolders(parsed.packs);
    const limit = Number(parsed.flags.get('limit') ?? 8);
    const searchType = String(parsed.flags.get('search-type') ?? 'fts');
    const service = await cliSkillService();
    const embedder = embedderFromFlags(parsed.flags);
    service.useEmbedder(embedder);
    await loadPacksReportingErrors(service, parsed.packs, io);
    const output = await service.search({ query, search_type: searchType, limit }, { includeWorkspacePacks: true });
    reportEndpointFailure(embedder, io);
    if (parsed.flags.has('json')) {
      io.stdout(`${JSON.stringify(output, null, 2)}\n`);
    } else if (output.skills.length === 0) {
      io.stdout(`No skills found for "${escapeForLine(query)}" (${output.search_type}${output.note ? `; ${escapeForLine(output.note)}` : ''}).\n`);
    } else {
      // Two lines per skill, whatever a title or trigger holds.
      for (const skill of output.skills)
        io.stdout(`${skill.score.toFixed(3)}  ${escapeForLine(skill.name)} — ${escapeForLine(skill.title ?? '')}\n       ${escapeForLine(skill.trigger)}\n`);
    }
    await service.dispose();
    return 0;
  },
};
