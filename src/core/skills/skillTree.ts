import type { SkillProblem } from './packs/document/skillProblems';
import { generatedName } from './packs/document/skillFileNames';
import type { FileReport, PackReport } from './packs/skillPackLoader';
import type { PackSource } from './packs/skillPackSources';
import type { SkillFormat } from './skillSchema';
import type { SkillScope } from './store/skillScope';
import type { SkillTreeRecord } from './store/skillRows';

/** The Skill Directory's view of the store: packs with their skills, invalid definitions and problems, then learned skills. */

type SkillTreeStatus = 'active' | 'inactive' | 'invalid';

interface SkillTreeItem {
  name: string;
  title: string;
  status: SkillTreeStatus;
  /** Why inactive (e.g. missing environment variables). */
  reason?: string;
  problems: SkillProblem[];
  file: string;
  /** 1-based line of the definition. */
  line: number;
  format: SkillFormat | undefined;
  origin: 'pack' | 'learned';
  /** A learned skill's scope (several scopes may each have a learned skill of one name). */
  scope?: SkillScope;
}

export interface SkillTreePack {
  name: string;
  root: string;
  source: PackSource | 'learned';
  workspace: boolean;
  scopeMode: string;
  missing: boolean;
  problems: SkillProblem[];
  skills: SkillTreeItem[];
}

/**
 * Groups the stored skills by pack (learned skills last, in a pack of their own) and adds, per
 * pack, the definitions that failed to load (one "invalid" item per skill name, with its errors)
 * and each loaded skill's own problems from the last load.
 */
export function buildSkillTree(records: readonly SkillTreeRecord[], reports: readonly PackReport[], learnedScopeMode: string): SkillTreePack[] {
  const byPack = groupByPack(records);
  const item = (r: SkillTreeRecord, problems: SkillProblem[]): SkillTreeItem => ({
    name: r.name,
    title: r.title,
    status: r.status,
    reason: r.status_reason || undefined,
    problems,
    file: r.source_file,
    line: r.source_line,
    format: r.format,
    origin: r.origin,
    ...(r.origin === 'learned' ? { scope: { scope_mode: r.scope_mode, scope_tenant_id: r.scope_tenant_id, scope_project_id: r.scope_project_id } } : {}),
  });
  const packs: SkillTreePack[] = reports.map((report) => {
    const problemsBySkill = new Map<string, SkillProblem[]>();
    /** Loaded skills of files whose problems hold no error, known without reading them: their problems are read when asked for. */
    const unread = new Map<string, FileReport>();
    const invalid: SkillTreeItem[] = [];
    for (const file of report.files) {
      if (file.errorFree) {
        for (const skill of file.skills) unread.set(skill.name, file);
        continue;
      }
      const loaded = new Set(file.skills.map((s) => s.name));
      for (const problem of file.problems) {
        if (problem.skillName && loaded.has(problem.skillName)) {
          const own = problemsBySkill.get(problem.skillName);
          if (own) own.push(problem);
          else problemsBySkill.set(problem.skillName, [problem]);
        }
      }
      invalid.push(...invalidItems(report, file, loaded));
    }
    const skills = (byPack.get(report.pack.name) ?? []).map((r) => {
      const made = item(r, problemsBySkill.get(r.name) ?? []);
      const file = unread.get(r.name);
      if (file) lazyProblems(made, file);
      return made;
    });
    return {
      name: report.pack.name,
      root: report.pack.root,
      source: report.pack.source,
      workspace: report.pack.workspace,
      scopeMode: report.pack.scopeMode,
      missing: report.missing,
      problems: report.problems,
      skills: [...skills, ...invalid].sort((a, b) => (a.name < b.name ? -1 : 1)),
    };
  });
  const learned = byPack.get(LEARNED);
  if (learned?.length) {
    packs.push({
      name: 'learned',
      root: '',
      source: 'learned',
      workspace: false,
      scopeMode: learnedScopeMode,
      missing: false,
      problems: [],
      skills: learned.map((r) => item(r, [])),
    });
  }
  return packs;
}

/** One pack of `skillTreeStatuses`. */
export interface PackSkillStatuses {
  workspace: boolean;
  skills: Array<{ name: string; status: SkillTreeStatus }>;
}

/**
 * `buildSkillTree`'s packs reduced to their skills' names and statuses (and whether a pack is a
 * workspace pack), counted from the rows given — no item is built, nothing is sorted: what a
 * count needs (the Skill Directory's header, after every load and file change).
 */
export function skillTreeStatuses(
  records: ReadonlyArray<Pick<SkillTreeRecord, 'name' | 'origin' | 'pack_name'> & { status: string }>,
  reports: readonly PackReport[],
): PackSkillStatuses[] {
  const byPack = groupByPack(records);
  const statusesOf = (rows: typeof records | undefined) => (rows ?? []).map((r) => ({ name: r.name, status: r.status as SkillTreeStatus }));
  const packs: PackSkillStatuses[] = reports.map((report) => {
    const invalid = report.files
      .filter((file) => !file.errorFree)
      .flatMap((file) => invalidItems(report, file, new Set(file.skills.map((s) => s.name))))
      .map((item) => ({ name: item.name, status: item.status }));
    return { workspace: report.pack.workspace, skills: [...statusesOf(byPack.get(report.pack.name)), ...invalid] };
  });
  const learned = byPack.get(LEARNED);
  if (learned?.length) packs.push({ workspace: false, skills: statusesOf(learned) });
  return packs;
}

/** The key learned skills are grouped under (no pack name is empty of characters like it). */
const LEARNED = '\u0000learned';

/** Rows by pack name; learned skills under LEARNED. */
function groupByPack<R extends { origin: string; pack_name: string }>(records: readonly R[]): Map<string, R[]> {
  const byPack = new Map<string, R[]>();
  for (const record of records) {
    const key = record.origin === 'learned' ? LEARNED : record.pack_name;
    const pack = byPack.get(key);
    if (pack) pack.push(record);
    else byPack.set(key, [record]);
  }
  return byPack;
}

/** The "invalid" items of one file of a pack: one per skill name whose definition failed with an error (`loaded`: the names it did load). */
function invalidItems(report: PackReport, file: FileReport, loaded: ReadonlySet<string>): SkillTreeItem[] {
  const errors = file.problems.filter((p) => p.severity === 'error' && !(p.skillName && loaded.has(p.skillName)));
  if (!errors.length) return [];
  const nameOf = (p: SkillProblem) => p.skillName ?? generatedName(report.pack.name, file.relativePath);
  return [...new Set(errors.map(nameOf))].map((name) => {
    const own = errors.filter((p) => nameOf(p) === name);
    return { name, title: name, status: 'invalid', problems: own, file: file.file, line: own[0]?.line ?? 1, format: file.format, origin: 'pack' };
  });
}

/**
 * An item's problems from a file whose problems hold no error (an unchanged file's, kept deflated
 * with its fingerprint): read back when first asked for, so the list's statuses (the Skill
 * Directory's header, at every load) do not inflate tens of thousands of warnings.
 */
function lazyProblems(item: SkillTreeItem, file: FileReport): void {
  const earlier = item.problems;
  let value: SkillProblem[] | undefined;
  Object.defineProperty(item, 'problems', {
    enumerable: true,
    configurable: true,
    get: () => (value ??= [...earlier, ...file.problems.filter((p) => p.skillName === item.name)]),
    set: (problems: SkillProblem[]) => {
      value = problems;
    },
  });
}
