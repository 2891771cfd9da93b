import { skillsConfigSchema } from '../../core/config/settingsSchema';
import { lengthTokenCounter } from '../../core/platform/basicPorts';
import { skillPreflight } from '../../core/planner/turn/skillPreflight';
import { escapeForLine } from '../../core/platform/lineText';
import type { CliCommand } from '../cliCommand';
import { cliSkillService, loadPacksReportingErrors, parseSkillArgs } from './skillCliSupport';

export const preflightSkillsCommand: CliCommand = {
  path: ['preflight', 'skills'],
  summary: 'Show which skills @toolshed would inject before a request (same pre-flight code and defaults as the extension)',
  usage: [
    'Usage: toolshed preflight skills --packs DIR… [--json] REQUEST',
    '',
    "Runs the extension's pre-flight with its default settings (toolshed.skills.*: selection, maxActive, minRelevance,",
    'askModelBelowRelevance, maxTokens) and prints each skill it would inject with its absolute relevance (0–1).',
    'There is no model here: when hybrid selection would ask one, the output says so and shows what is injected without its answer.',
    '--json prints {request, min_relevance, selection, injected:[{name,reason,relevance}], note?, tokens}.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, ['json']);
    const request = parsed.positional.join(' ').trim();
    if (parsed.packs.length === 0 || !request) {
      io.stderr('toolshed preflight skills: --packs DIR… and a REQUEST are required. See --help.\n');
      return 2;
    }
    const defaults = skillsConfigSchema.parse({});
    const service = await cliSkillService();
    try {
      await loadPacksReportingErrors(service, parsed.packs, io);
      const countTokens = (text: string) => lengthTokenCounter.count(text);
      const port = skillPreflight(service, { includeWorkspacePacks: true }, defaults, { pinnedNames: [], countTokens, signal: { isCancelled: false } });
      const result = await port.preflight(request);
      const injected = result.used.map((use) => ({ name: use.name, reason: use.reason ?? '', relevance: use.relevance ?? null }));
      const tokens = await countTokens([result.pinnedBlock, result.relevantBlock].filter(Boolean).join('\n\n'));
      if (parsed.flags.has('json')) {
        io.stdout(
          `${JSON.stringify({ request, min_relevance: defaults.minRelevance, selection: defaults.selection, injected, ...(result.note ? { note: result.note } : {}), tokens }, null, 2)}\n`,
        );
        return 0;
      }
      if (injected.length === 0) {
        io.stdout(
          result.note
            ? `Nothing would be injected without a model's choice for "${escapeForLine(request)}".\n`
            : `Nothing would be injected: no skill reaches toolshed.skills.minRelevance ${defaults.minRelevance} for "${escapeForLine(request)}".\n`,
        );
      }
      for (const skill of injected)
        io.stdout(`${skill.relevance === null ? '  –  ' : skill.relevance.toFixed(3)}  ${escapeForLine(skill.name)} (${escapeForLine(skill.reason)})\n`);
      if (result.note) io.stdout(`${escapeForLine(result.note)}\n`);
      if (injected.length) io.stdout(`≈ ${tokens} tokens injected (selection: ${defaults.selection}, min relevance ${defaults.minRelevance}).\n`);
      return 0;
    } finally {
      await service.dispose();
    }
  },
};
