import type { Clock, Logger } from '../../platform/ports';
import { yieldToHost } from '../../platform/hostSlices';
import { ownedString } from '../../platform/ownedText';
import type { ParsedSkill } from './document/parsedSkill';
import type { ResolvedSkillPack } from './skillPackSources';
import type { SkillFileRef } from './skillPackScanner';
import { makeProblem, PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import { toRecord } from '../store/skillRecords';
import type { SkillRecord } from '../skillSchema';
import type { SkillStore } from '../store/skillStore';
import { makeScope } from '../store/skillScope';
import type { SkillIdentity, SkillScope } from '../store/skillScope';

/**
 * Writes parsed pack skills into the SkillStore with the pack loading rules of
 * docs/contracts.md#skill-record (new → insert; changed content → update when the pack allows it;
 * a learned skill of the same identity is never overwritten; a name claimed earlier in the same
 * scope is a duplicate). Writing is sliced and
 * each skill isolated, so a large or hostile pack neither blocks the host nor costs other skills.
 */

/** One file read and parsed, ready to be written. */
export interface ParsedFile {
  pack: ResolvedSkillPack;
  ref: SkillFileRef;
  skills: ParsedSkill[];
  problems: SkillProblem[];
  resources: string[];
}

export type WriteOutcome = 'inserted' | 'updated' | 'unchanged' | 'skipped';

/** Where a skill's problems and stored definitions are recorded (the loader's file report). */
export interface WriteReport {
  skills: Array<{ name: string; line: number }>;
  problems: SkillProblem[];
}

/** One parsed skill waiting to be written, with the report its problems go to. */
export interface WriteItem {
  file: ParsedFile;
  skill: ParsedSkill;
  report: WriteReport;
  onApplied(outcome: Exclude<WriteOutcome, 'skipped'>): void;
}

/** Where another definition of the same identity was already taken from, if any. */
export type ClaimLookup = (identity: SkillIdentity) => { file: string; line: number } | undefined;

export interface WriterDeps {
  store: SkillStore;
  clock: Clock;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
}

/**
 * Writing runs in slices of about this long, each its own transaction, with a turn of the event
 * loop between them: a large pack never blocks the host for long.
 */
const WRITE_SLICE_MS = 40;

export class SkillPackWriter {
  constructor(private readonly deps: WriterDeps) {}

  /**
   * Writes the items in slices of about WRITE_SLICE_MS, yielding to the host between slices.
   * Each skill is written in its own savepoint: if anything about it fails (a value the store
   * cannot hold, a bug), only that skill is undone and reported; the rest still load.
   */
  async writeSliced(items: readonly WriteItem[], claimedElsewhere: ClaimLookup): Promise<void> {
    const { store } = this.deps;
    let next = 0;
    while (next < items.length) {
      const sliceStart = performance.now();
      store.transaction(() => {
        while (next < items.length && performance.now() - sliceStart < WRITE_SLICE_MS) {
          const item = items[next++] as WriteItem;
          const outcome = this.writeIsolated(item, claimedElsewhere);
          if (outcome !== 'skipped') item.onApplied(outcome);
        }
      });
      if (next < items.length) await yieldToHost();
    }
  }

  private writeIsolated(item: WriteItem, claimedElsewhere: ClaimLookup): WriteOutcome {
    const { file, skill, report } = item;
    const listed = report.skills.length;
    try {
      return this.deps.store.transaction(() => this.write(file, skill, report, claimedElsewhere));
    } catch (error) {
      report.skills.length = listed;
      const reason = error instanceof Error ? error.message : String(error);
      report.problems.push(
        makeProblem(
          file.ref.file,
          skill.span,
          'error',
          PROBLEM_CODES.loadFailed,
          `Skill \`${skill.name}\` could not be stored: ${reason}. The rest of the file and pack is loaded; fix this definition.`,
          { skillName: skill.name },
        ),
      );
      this.deps.logger.warn(`Skill ${skill.name} (${file.ref.file}:${skill.span.line}) could not be stored: ${reason}`);
      return 'skipped';
    }
  }

  /** Applies the upsert rules to one parsed skill; records problems on the report. */
  private write(file: ParsedFile, skill: ParsedSkill, report: WriteReport, claimedElsewhere: ClaimLookup): WriteOutcome {
    const { store } = this.deps;
    const span = skill.nameSpan ?? skill.span;
    const scope = packScope(file.pack);
    const other = claimedElsewhere({ ...scope, name: skill.name });
    if (other) {
      report.problems.push(
        makeProblem(
          file.ref.file,
          span,
          'error',
          PROBLEM_CODES.duplicateName,
          `Duplicate skill name \`${skill.name}\`: also defined at ${other.file}:${other.line}. The first definition is used; rename one of them.`,
          { skillName: skill.name, data: { otherFile: other.file, otherLine: other.line } },
        ),
      );
      return 'skipped';
    }
    // Names are unique per scope (docs/contracts.md#skill-scopes): only this pack's scope can clash.
    const existing = store.get(skill.name, scope);
    if (existing && existing.origin === 'learned') {
      report.problems.push(
        makeProblem(
          file.ref.file,
          span,
          'warning',
          PROBLEM_CODES.shadowedByLearned,
          `A learned skill named \`${skill.name}\` exists; pack skills never overwrite learned ones. Rename this skill to load it.`,
          { skillName: skill.name },
        ),
      );
      return 'skipped';
    }
    const record = toRecord(
      skill,
      {
        origin: 'pack',
        originRef: `${file.pack.name}:${file.ref.relativePath}`,
        scopeMode: file.pack.scopeMode,
        tenantId: file.pack.tenantId,
        projectId: file.pack.projectId,
        packName: file.pack.name,
        workspace: file.pack.workspace,
        sourceFile: file.ref.file,
        resources: file.resources,
        now: this.deps.clock.now(),
        env: this.deps.env,
      },
      existing,
    );
    if (record.status === 'inactive') {
      report.problems.push(
        makeProblem(
          file.ref.file,
          skill.span,
          'info',
          PROBLEM_CODES.missingRequirement,
          `Skill \`${skill.name}\` is inactive: ${record.status_reason}. Set them and reload to activate it.`,
          { skillName: skill.name },
        ),
      );
    }
    // Kept in the load's report until the next load: a copy, not a view into the file's text (ownedText.ts).
    report.skills.push({ name: ownedString(skill.name), line: skill.span.line });
    if (!existing) {
      store.upsert(record);
      return 'inserted';
    }
    if (existing.content_hash === record.content_hash) {
      // A row that still holds the body (written before bodies were read from files) is rewritten without it.
      if (!samePlacement(existing, record) || store.holdsSourceBody(existing)) store.upsert({ ...record, updated_at: existing.updated_at });
      return 'unchanged';
    }
    if (!file.pack.updateExistingPackSkills && existing.pack_name === file.pack.name) return 'unchanged';
    store.upsert(record);
    return 'updated';
  }
}

/** The scope a pack's skills are stored in (their identity is this scope + name). */
export function packScope(pack: ResolvedSkillPack): SkillScope {
  return makeScope(pack.scopeMode, pack.tenantId, pack.projectId);
}

function samePlacement(a: SkillRecord, b: SkillRecord): boolean {
  return (
    a.status === b.status &&
    a.status_reason === b.status_reason &&
    a.source_file === b.source_file &&
    a.source_line === b.source_line &&
    a.pack_name === b.pack_name &&
    a.workspace === b.workspace &&
    a.scope_mode === b.scope_mode &&
    a.scope_tenant_id === b.scope_tenant_id &&
    a.scope_project_id === b.scope_project_id &&
    a.origin_ref === b.origin_ref
  );
}
