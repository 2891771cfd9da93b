import { makeProblem, PROBLEM_CODES, type SkillProblem, type Span } from '../../core/skills/packs/document/skillProblems';

/**
 * Duplicate skill names across files (pure): every file that declares a name another file also
 * declares gets a problem on its `name`, pointing at the others. Within-file duplicates are the
 * parser's business.
 */
export function duplicateNameProblems(
  namesByFile: ReadonlyMap<string, ReadonlyArray<{ readonly name: string; readonly span: Span }>>,
  displayPath: (file: string) => string = (f) => f,
): Map<string, SkillProblem[]> {
  const owners = new Map<string, Array<{ file: string; span: Span }>>();
  for (const [file, names] of namesByFile) {
    for (const { name, span } of names) {
      const list = owners.get(name) ?? [];
      list.push({ file, span });
      owners.set(name, list);
    }
  }
  const result = new Map<string, SkillProblem[]>();
  for (const [name, list] of owners) {
    const files = new Set(list.map((o) => o.file));
    if (files.size < 2) continue;
    for (const owner of list) {
      const others = list.filter((o) => o.file !== owner.file).map((o) => `${displayPath(o.file)}:${o.span.line}`);
      const problem = makeProblem(
        owner.file,
        owner.span,
        'error',
        PROBLEM_CODES.duplicateName,
        `Another skill is also named "${name}" (${others.join(', ')}). Skill names must be unique: rename one of them.`,
        { skillName: name, data: { others } },
      );
      const existing = result.get(owner.file) ?? [];
      existing.push(problem);
      result.set(owner.file, existing);
    }
  }
  return result;
}
