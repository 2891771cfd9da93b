import * as path from 'node:path';
import type { PackFolderWriter } from '../../platform/ports';
import type { SkillRecord } from '../../skills/skillSchema';
import { exportedTo } from '../../skills/store/learned/exportedLearnedSkills';
import type { FeedbackCounters } from '../learningStore';
import type { LearnedSkillPort } from '../learnedSkillPort';
import { agentSkillName, renderSkillMd } from './skillMdDocument';

/**
 * Export as Skill Pack: writes chosen learned skills as `<folder>/<name>/SKILL.md`
 * (usually `<workspace>/.github/skills`), for a team to commit. Nothing is ever overwritten: a
 * name whose folder exists, or that a loaded pack skill already has, is reported and skipped.
 * The learned skills are not changed here — the pack loader retires each one once it loads its
 * SKILL.md (exportedLearnedSkills.ts), so a skill is never shown twice.
 */

export interface PackExportDeps {
  skills: Pick<LearnedSkillPort, 'learnedSkills' | 'packSkillNames'>;
  counters(name: string): FeedbackCounters | undefined;
  files: PackFolderWriter;
  now: number;
}

export interface PackExportReport {
  written: Array<{ learned: string; name: string; file: string }>;
  skipped: Array<{ learned: string; name: string; reason: string }>;
}

/** Learned skills that can be exported: not retired already (a pack skill stands for those). */
export function exportableLearnedSkills(skills: Pick<LearnedSkillPort, 'learnedSkills'>): SkillRecord[] {
  return skills
    .learnedSkills()
    .filter((r) => !exportedTo(r))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Writes the learned skills named (every exportable one when `names` is empty) into `folder`.
 * Each skill is checked, then written; one that cannot be is reported with the reason and the
 * others still go.
 */
export async function exportLearnedAsPack(deps: PackExportDeps, folder: string, names: readonly string[] = []): Promise<PackExportReport> {
  const report: PackExportReport = { written: [], skipped: [] };
  const all = deps.skills.learnedSkills();
  const wanted = names.length ? [...new Set(names)] : exportableLearnedSkills(deps.skills).map((r) => r.name);
  const packNames = deps.skills.packSkillNames();
  const taken = new Set<string>();
  for (const learnedName of wanted) {
    const records = all.filter((r) => r.name === learnedName);
    if (records.length === 0) {
      report.skipped.push({ learned: learnedName, name: agentSkillName(learnedName), reason: `no learned skill is named "${learnedName}"` });
      continue;
    }
    for (const record of records) {
      const name = agentSkillName(record.name);
      const skip = (reason: string) => report.skipped.push({ learned: record.name, name, reason });
      const retired = exportedTo(record);
      if (retired) {
        skip(`already exported as pack skill "${retired.name}" (${retired.source_file}); delete that folder to export it again`);
        continue;
      }
      if (taken.has(name)) {
        skip(`another chosen skill is also exported as "${name}"; export them one at a time and rename one`);
        continue;
      }
      // Same name and scope as the pack skill it would become: packs never replace a learned skill of their own identity.
      if (record.scope_mode === 'project' && record.name === name) {
        skip(
          `it would have the same name and project scope as the learned skill itself, and a pack skill never replaces a learned one of its own scope; promote it to tenant or global scope first (Promote Learned Skill), then export it`,
        );
        continue;
      }
      if (packNames.has(name)) {
        skip(`a pack skill named "${name}" is already loaded; rename or remove that skill first`);
        continue;
      }
      const dir = path.join(folder, name);
      if (await deps.files.exists(dir)) {
        skip(`${dir} already exists; nothing was overwritten. Delete or rename that folder to export again`);
        continue;
      }
      const counters = deps.counters(record.name);
      const text = renderSkillMd(
        record,
        { helpful: counters?.helpful ?? 0, harmful: counters?.harmful ?? 0, use_count: counters?.use_count ?? record.use_count },
        deps.now,
      );
      const file = path.join(dir, 'SKILL.md');
      try {
        await deps.files.writeFile(file, text);
      } catch (error) {
        skip(`${file} could not be written: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      taken.add(name);
      report.written.push({ learned: record.name, name, file });
    }
  }
  return report;
}

/** One line per skipped skill, for a message or the terminal. */
export function describeSkipped(report: PackExportReport): string[] {
  return report.skipped.map((s) => `${s.learned}: ${s.reason}`);
}
