import type { Clock, Logger } from '../../platform/ports';
import { yieldToHost } from '../../platform/hostSlices';
import { ownedString } from '../../platform/ownedText';
import type { ParsedSkill } from './document/parsedSkill';
import type { ResolvedSkillPack } from './skillPackSources';
import type { SkillFileRef } from './skillPackScanner';
import { makeProblem, PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import { isCurrentContentHash, legacyContentHash, toRecord } from '../store/skillRecords';
import { UNVERIFIED_CONTENT_HASH } from '../store/unverifiedStore';
import type { SkillRecord } from '../skillSchema';
import type { SkillStore } from '../store/skillStore';
import type { CountedElsewhere } from '../../search/threadTerms';
import { identityKey, makeScope } from '../store/skillScope';
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
  /** Per skill (in `skills` order), its terms as the parser thread counted them; absent: analysed when stored. */
  analysed?: CountedElsewhere[];
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
 * loop between them: a large pack never blocks the host for long. Longer than the load's own
 * slices (`SLICE_MS`, hostSlices.ts), because a slice is a transaction and its skills are stored
 * with one multi-row upsert: a load hands the writer one batch of files at a time (a few ms of
 * work, one slice) and gives the host its turns between batches; this bound matters for one large
 * write, such as a file of many skills saved again.
 */
const WRITE_SLICE_MS = 40;

/** Decided skills stored with one `upsertMany` (multi-row statements) at most: a load's batch of files fits. */
const STORE_BATCH = 64;

/** What the loading rules decided for one skill: its outcome and the record to store, if any. */
interface Decision {
  item: WriteItem;
  outcome: Exclude<WriteOutcome, 'skipped'>;
  /** The record to upsert; undefined when nothing needs writing. */
  record: SkillRecord | undefined;
  /** The entry it added to its report's skills (removed again if it cannot be stored). */
  listed: { name: string; line: number };
  /** Where a failure to store it goes in its report's problems (after the problems found deciding it). */
  problemsAt: number;
}

export class SkillPackWriter {
  constructor(private readonly deps: WriterDeps) {}

  /**
   * Writes the items in slices of about WRITE_SLICE_MS, yielding to the host between slices.
   * Each skill is decided in order (duplicates, learned skills, changes) and the decided ones are
   * stored together (SkillStore.upsertMany: a few multi-row statements, all or nothing). If that
   * fails, they are stored again one by one, each in its own savepoint: a skill that cannot be
   * stored (a value the store cannot hold, a bug) is undone and reported, and the rest still load.
   */
  async writeSliced(items: readonly WriteItem[], claimedElsewhere: ClaimLookup): Promise<void> {
    const { store } = this.deps;
    let next = 0;
    while (next < items.length) {
      const sliceStart = performance.now();
      store.transaction(() => {
        const decided: Decision[] = [];
        const identities = new Set<string>();
        while (next < items.length && performance.now() - sliceStart < WRITE_SLICE_MS) {
          const item = items[next] as WriteItem;
          // A skill of an identity decided in this batch is decided once that one is stored, as it
          // would be one by one: it sees it claimed or stored.
          const identity = identityKey({ ...packScope(item.file.pack), name: item.skill.name });
          if (identities.has(identity) || decided.length >= STORE_BATCH) {
            this.store(decided);
            decided.length = 0;
            identities.clear();
          }
          next++;
          const decision = this.decideIsolated(item, claimedElsewhere);
          if (!decision) continue;
          decided.push(decision);
          identities.add(identity);
        }
        this.store(decided);
      });
      if (next < items.length) await yieldToHost();
    }
  }

  /** Stores decided skills together, else one by one (see writeSliced); each one stored is applied, in order. */
  private store(decided: readonly Decision[]): void {
    const records = decided.flatMap((d) => (d.record ? [d.record] : []));
    // Each skill's terms as the parser thread counted them, if it did (the store analyses them otherwise).
    const analysed = decided.flatMap(({ record, item }) => (record ? [item.file.analysed?.[item.file.skills.indexOf(item.skill)]] : []));
    let stored = true;
    if (records.length > 1) {
      try {
        this.deps.store.upsertMany(records, analysed);
      } catch {
        stored = false;
      }
    } else stored = false;
    if (stored) {
      for (const d of decided) d.item.onApplied(d.outcome);
      return;
    }
    /** Per report, the failures reported so far (each shifts the later ones' place by one). */
    const failures = new Map<WriteReport, number>();
    for (const d of decided) {
      try {
        if (d.record) this.deps.store.upsert(d.record);
      } catch (error) {
        const { report } = d.item;
        const at = report.skills.indexOf(d.listed);
        if (at >= 0) report.skills.splice(at, 1);
        const shift = failures.get(report) ?? 0;
        failures.set(report, shift + 1);
        report.problems.splice(d.problemsAt + shift, 0, this.failed(d.item, error));
        continue;
      }
      d.item.onApplied(d.outcome);
    }
  }

  /** The loading rules for one skill; undefined when it is skipped (reported), or when deciding failed (reported as not stored). */
  private decideIsolated(item: WriteItem, claimedElsewhere: ClaimLookup): Decision | undefined {
    const { file, skill, report } = item;
    const listed = report.skills.length;
    try {
      const decision = this.decide(file, skill, report, claimedElsewhere);
      if (decision === 'skipped') return undefined;
      return { item, ...decision, listed: report.skills[report.skills.length - 1]!, problemsAt: report.problems.length };
    } catch (error) {
      report.skills.length = listed;
      report.problems.push(this.failed(item, error));
      return undefined;
    }
  }

  /** The problem (and log line) of a skill that could not be stored. */
  private failed(item: WriteItem, error: unknown): SkillProblem {
    const { file, skill } = item;
    const reason = error instanceof Error ? error.message : String(error);
    this.deps.logger.warn(`Skill ${skill.name} (${file.ref.file}:${skill.span.line}) could not be stored: ${reason}`);
    return makeProblem(
      file.ref.file,
      skill.span,
      'error',
      PROBLEM_CODES.loadFailed,
      `Skill \`${skill.name}\` could not be stored: ${reason}. The rest of the file and pack is loaded; fix this definition.`,
      { skillName: skill.name },
    );
  }

  /** Applies the upsert rules to one parsed skill: its outcome and the record to store; records problems on the report. */
  private decide(
    file: ParsedFile,
    skill: ParsedSkill,
    report: WriteReport,
    claimedElsewhere: ClaimLookup,
  ): 'skipped' | { outcome: Exclude<WriteOutcome, 'skipped'>; record: SkillRecord | undefined } {
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
    if (!existing) return { outcome: 'inserted', record };
    if (sameContent(existing, record, skill)) {
      // A row that still holds the body (written before bodies were read from files), or the first
      // definition's content hash, is rewritten: without the body, with the current hash.
      const rewrite = !samePlacement(existing, record) || store.holdsSourceBody(existing) || existing.content_hash !== record.content_hash;
      return { outcome: 'unchanged', record: rewrite ? { ...record, updated_at: existing.updated_at } : undefined };
    }
    // A row whose stored bytes could not be vouched for (unverifiedStore.ts) is rewritten even where updates are off.
    if (!file.pack.updateExistingPackSkills && existing.pack_name === file.pack.name && existing.content_hash !== UNVERIFIED_CONTENT_HASH)
      return { outcome: 'unchanged', record: undefined };
    return { outcome: 'updated', record };
  }
}

/** The scope a pack's skills are stored in (their identity is this scope + name). */
export function packScope(pack: ResolvedSkillPack): SkillScope {
  return makeScope(pack.scopeMode, pack.tenantId, pack.projectId);
}

/**
 * Whether a stored skill holds the content `record` was made from: its content hash compared, or
 * for a row stored with the first definition's hash (docs/contracts.md#hashes), that definition.
 */
function sameContent(existing: SkillRecord, record: SkillRecord, skill: ParsedSkill): boolean {
  if (existing.content_hash === record.content_hash) return true;
  if (existing.content_hash === UNVERIFIED_CONTENT_HASH) return false;
  return !isCurrentContentHash(existing.content_hash) && existing.content_hash === legacyContentHash({ ...skill, resources: record.resources });
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
