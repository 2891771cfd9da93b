import * as path from 'node:path';
import type { SkillPackFormat } from '../../config/settingsSchema';
import type { FileSystemPort } from '../../platform/ports';
import { detectSkillFormat, parseSkillDocument } from './document/skillDocumentParser';
import type { SkillDocumentParse } from './document/offThreadParser';
import { SKILL_FILE_FORMATS_TEXT } from './document/skillFileNames';
import { readSkillFile, scanPack } from './skillPackScanner';
import type { SkillFileRef } from './skillPackScanner';
import { compareProblems, makeProblem, PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import { discoverScriptTools } from '../scripts/scriptDiscovery';
import type { ScriptFileSystem, SkillScriptSource } from '../scripts/scriptDiscovery';

/**
 * Lints packs like a compiler (the `toolshed validate` command and "Validate Skill Packs"):
 * parses every skill file under the given folders/files without touching any store, and adds
 * the cross-file rule (duplicate names, reported with both files). Given `scripts`, it also
 * checks each SKILL.md skill's `scripts/` with the discovery the editor runs (links, files that
 * cannot run, risky patterns, listed files that are missing), each a warning on the SKILL.md.
 */

export interface ValidationTarget {
  /** A pack folder or a single skill file (absolute or relative to cwd). */
  path: string;
  /** Pack name for generated names; default: the folder's name. */
  packName?: string;
  format?: SkillPackFormat;
  /**
   * What an absent path is: an `error` when named explicitly (the CLI's default), a `warning`
   * for a folder the user configured, nothing (`skip`) for a default folder that may not exist.
   */
  ifAbsent?: 'error' | 'warning' | 'skip';
}

export interface ValidationReport {
  files: number;
  skills: number;
  errors: number;
  warnings: number;
  problems: SkillProblem[];
  /** Every valid skill found: name, file, 1-based line. */
  definitions: Array<{ name: string; file: string; line: number }>;
}

export async function validateSkillTargets(
  fs: FileSystemPort,
  targets: readonly ValidationTarget[],
  parse?: SkillDocumentParse,
  scripts?: ScriptFileSystem,
): Promise<ValidationReport> {
  const problems: SkillProblem[] = [];
  const scriptSources: SkillScriptSource[] = [];
  const definitions: ValidationReport['definitions'] = [];
  const seen = new Map<string, { file: string; line: number }>();
  let files = 0;
  for (const target of targets) {
    const absolute = path.resolve(target.path);
    const stat = await fs.stat(absolute).catch(() => undefined);
    let refs: SkillFileRef[] = [];
    let packName = target.packName ?? slugPack(path.basename(absolute));
    if (!stat) {
      const severity = target.ifAbsent ?? 'error';
      if (severity !== 'skip') {
        problems.push(
          makeProblem(
            absolute,
            { line: 1, column: 1, endLine: 1, endColumn: 1 },
            severity,
            PROBLEM_CODES.packNotFound,
            severity === 'warning' ? 'Skill pack folder not found: create it, or fix or remove its entry in toolshed.skills.packs.' : 'Path not found.',
          ),
        );
      }
      continue;
    }
    if (stat.kind === 'file') {
      const format = detectSkillFormat(absolute);
      if (!format) {
        problems.push(
          makeProblem(
            absolute,
            { line: 1, column: 1, endLine: 1, endColumn: 1 },
            'error',
            PROBLEM_CODES.invalidValue,
            `Not a skill file: use ${SKILL_FILE_FORMATS_TEXT}.`,
          ),
        );
        continue;
      }
      packName = target.packName ?? slugPack(path.basename(path.dirname(absolute)));
      refs = [{ file: absolute, relativePath: path.basename(absolute), format }];
    } else {
      const scan = await scanPack(fs, absolute, target.format);
      for (const problem of scan.problems) problems.push(problem);
      refs = scan.files;
    }
    for (const ref of refs) {
      files++;
      const read = await readSkillFile(fs, ref.file);
      if (!read.ok) {
        problems.push(read.problem);
        continue;
      }
      const options = { format: ref.format, packName, relativePath: ref.relativePath };
      const result = parse ? await parse(read.text, ref.file, options) : parseSkillDocument(read.text, ref.file, options);
      for (const problem of result.problems) problems.push(problem);
      for (const skill of result.skills) {
        const previous = seen.get(skill.name);
        if (previous) {
          problems.push(
            makeProblem(
              ref.file,
              skill.nameSpan ?? skill.span,
              'error',
              PROBLEM_CODES.duplicateName,
              `Duplicate skill name \`${skill.name}\`: also defined at ${previous.file}:${previous.line}. Names must be unique; rename one of them.`,
              { skillName: skill.name, data: { otherFile: previous.file, otherLine: previous.line } },
            ),
          );
          continue;
        }
        seen.set(skill.name, { file: ref.file, line: skill.span.line });
        definitions.push({ name: skill.name, file: ref.file, line: skill.span.line });
        if (scripts && skill.format === 'skill-md') {
          scriptSources.push({
            skillName: skill.name,
            skillFile: ref.file,
            allowedTools: skill.allowed_tools,
            requires: skill.requires,
            scriptsFrontmatter: skill.meta.scripts,
          });
        }
      }
    }
  }
  if (scripts && scriptSources.length > 0) {
    const catalog = await discoverScriptTools(scripts, scriptSources, new Set());
    for (const problem of catalog.problems) {
      problems.push(
        makeProblem(problem.skillFile, { line: 1, column: 1, endLine: 1, endColumn: 1 }, problem.severity, PROBLEM_CODES.scriptProblem, problem.message, {
          skillName: problem.skillName,
        }),
      );
    }
  }
  problems.sort(compareProblems);
  return {
    files,
    skills: definitions.length,
    errors: problems.filter((p) => p.severity === 'error').length,
    warnings: problems.filter((p) => p.severity === 'warning').length,
    problems,
    definitions,
  };
}

function slugPack(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '') || 'local'
  );
}
