import { skillsConfigSchema } from '../../core/config/settingsSchema';
import { lengthTokenCounter } from '../../core/platform/basicPorts';
import { skillPreflight } from '../../core/planner/turn/skillPreflight';
import { escapeForLine } from '../../core/platform/lineText';
import { explainSkills } from '../../core/planner/turn/turnExplanation';
import { skillsSection } from '../../core/planner/turn/explainMarkdown';
import type { CliCommand } from '../cliCommand';
import { cliSkillService, loadPacksReportingErrors, parseSkillArgs } from './skillCliSupport';
import { checkPackFolders } from './skillCliSupport';

export const preflightSkillsCommand: CliCommand = {
  path: ['preflight', 'skills'],
  summary: 'Show which skills @toolshed would inject before a request (same pre-flight code and defaults as the extension)',
  usage: [
    'Usage: toolshed preflight skills --packs DIR… [--explain] [--json] REQUEST',
    '',
    "Runs the extension's pre-flight with its default settings (toolshed.skills.*: selection, maxActive, minRelevance,",
    'askModelBelowRelevance, maxTokens) and prints each skill it would inject with its absolute relevance (0–1).',
    'There is no model here: when hybrid selection would ask one, the output says so and shows what is injected without its answer.',
    "--explain adds every candidate the gate looked at, with its relevance and why it was or was not injected (@toolshed's /why).",
    '--json prints {request, min_relevance, selection, injected:[{name,reason,relevance}], note?, tokens, explain?}.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: ['json', 'explain'], values: [] });
    const request = parsed.positional.join(' ').trim();
    if (parsed.packs.length === 0 || !request) {
      io.stderr('toolshed preflight skills: --packs DIR… and a REQUEST are required. See --help.\n');
      return 2;
    }
    checkPackFolders(parsed.packs);
    const defaults = skillsConfigSchema.parse({});
    const service = await cliSkillService();
    try {
      await loadPacksReportingErrors(service, parsed.packs, io);
      const countTokens = (text: string) => lengthTokenCounter.count(text);
      const port = skillPreflight(service, { includeWorkspacePacks: true }, defaults, { pinnedNames: [], countTokens, signal: { isCancelled: false } });
      const result = await port.preflight(request);
      const injected = result.used.map((use) => ({ name: use.name, reason: use.reason ?? '', relevance: use.relevance ?? null }));
      const tokens = await countTokens([result.pinnedBlock, result.relevantBlock].filter(Boolean).join('\n\n'));
      // The same explanation /why gives for a turn's skills.
      const explain = parsed.flags.has('explain') ? explainSkills(defaults, result, { pinnedNames: [], workspaceSkills: true }) : undefined;
      if (parsed.flags.has('json')) {
        const report = {
          request,
          min_relevance: defaults.minRelevance,
          selection: defaults.selection,
          injected,
          ...(result.note ? { note: result.note } : {}),
          tokens,
        };
        io.stdout(`${JSON.stringify({ ...report, ...(explain ? { explain } : {}) }, null, 2)}\n`);
        return 0;
      }
      if (explain) {
        io.stdout(`${skillsSection(explain).map(escapeForLine).join('\n')}\n`);
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
