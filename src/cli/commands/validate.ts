import * as path from 'node:path';
import type { CliCommand } from '../cliCommand';
import { nodeFileSystem } from '../../core/platform/nodeFileSystem';
import { isExecutableFile } from '../../core/platform/nodeProcesses';
import { formatProblem } from '../../core/skills/packs/document/skillProblems';
import { SKILL_FILE_FORMATS_SHORT } from '../../core/skills/packs/document/skillFileNames';
import { validateSkillTargets } from '../../core/skills/packs/skillValidation';
import { parseSkillArgs } from './skillCliSupport';
import { escapeForLine } from '../../core/platform/lineText';

export const validateCommand: CliCommand = {
  path: ['validate'],
  summary: 'Lint skill packs and skill files (file:line:col: severity: message; exit 1 on errors)',
  usage: [
    'Usage: toolshed validate PATH… [--json]',
    '',
    `PATH is a pack folder or a skill file (${SKILL_FILE_FORMATS_SHORT}).`,
    'Prints one line per problem: file:line:col: severity: message [code], then a summary.',
    "Skill scripts (a SKILL.md folder's scripts/) get the editor's checks: links, files that cannot run, risky patterns, listed files that are missing.",
    '--json prints {files, skills, errors, warnings, problems:[{file,line,column,endLine,endColumn,severity,code,message}]}.',
    'Exit code: 0 without errors (warnings allowed), 1 with errors, 2 on usage errors.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: ['json'], values: [] });
    const paths = [...parsed.packs, ...parsed.positional];
    if (paths.length === 0) {
      io.stderr('toolshed validate: give at least one PATH. See --help.\n');
      return 2;
    }
    // Skill scripts get the checks the editor shows on their SKILL.md (scriptDiscovery.ts).
    const report = await validateSkillTargets(
      nodeFileSystem,
      paths.map((p) => ({ path: p })),
      undefined,
      { ...nodeFileSystem, isExecutable: isExecutableFile },
    );
    const display = (file: string) => {
      const rel = path.relative(process.cwd(), file);
      return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
    };
    const problems = report.problems.map((p) => ({ ...p, file: display(p.file) }));
    if (parsed.flags.has('json')) {
      io.stdout(`${JSON.stringify({ files: report.files, skills: report.skills, errors: report.errors, warnings: report.warnings, problems }, null, 2)}\n`);
    } else {
      // One line per problem, whatever characters a file name or a quoted key holds.
      for (const problem of problems)
        io.stdout(`${formatProblem({ ...problem, file: escapeForLine(problem.file), message: escapeForLine(problem.message) })}\n`);
      io.stdout(`${report.files} file(s), ${report.skills} skill(s): ${report.errors} error(s), ${report.warnings} warning(s)\n`);
    }
    return report.errors > 0 ? 1 : 0;
  },
};
