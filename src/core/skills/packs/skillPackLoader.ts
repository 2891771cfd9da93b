import * as path from 'node:path';
import type { Clock, EventSink, FileSystemPort, Logger } from '../../platform/ports';
import { detectSkillFormat, parseSkillDocument } from './skillDocumentParser';
import type { DocumentFormat, ParsedSkill } from './skillDocumentParser';
import { isInside } from './skillPackSources';
import type { ResolvedSkillPack } from './skillPackSources';
import { formatAdmits, listSkillResources, readSkillFile, scanPack } from './skillPackScanner';
import type { SkillFileRef } from './skillPackScanner';
import { FILE_START, makeProblem, PROBLEM_CODES } from './skillProblems';
import type { SkillProblem } from './skillProblems';
import { toRecord } from '../store/skillRecords';
import type { SkillRecord } from '../skillSchema';
import type { SkillStore } from '../store/skillStore';
import { identityKey, makeScope } from '../store/skillScope';
import type { SkillIdentity, SkillScope } from '../store/skillScope';

/**
 * Loads packs into the SkillStore with the upsert rules of RFC §3.5:
 * new skill → insert; pack skill whose content hash changed → update when the pack allows it;
 * a learned skill is never overwritten; a skill whose file (or pack) is gone is removed; a name
 * defined twice is an error naming both files (the first definition, in pack order, wins).
 * `reloadFile` touches only the skills of that one file.
 */

export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
}

export interface LoadOptions {
  onProgress?: (done: number, total: number, file: string) => void;
  cancellation?: CancellationSignal;
}

export interface FileReport {
  file: string;
  pack: string;
  relativePath: string;
  format: DocumentFormat;
  /** Skills defined by this file that are in the store. */
  skills: Array<{ name: string; line: number }>;
  problems: SkillProblem[];
}

export interface PackReport {
  pack: ResolvedSkillPack;
  missing: boolean;
  files: FileReport[];
  /** Problems not tied to one skill file (unreadable folders, symlinks, …). */
  problems: SkillProblem[];
  skillCount: number;
  updatedCount: number;
}

export interface LoadSummary {
  cancelled: boolean;
  packs: Array<{ name: string; skillCount: number; insertedCount: number; updatedCount: number; removedCount: number; problemCount: number }>;
  removedCount: number;
  problems: SkillProblem[];
  files: number;
  durationMs: number;
}

export interface FileChangeResult {
  status: 'reloaded' | 'removed' | 'ignored';
  file: string;
  pack?: string;
  inserted: string[];
  updated: string[];
  removed: string[];
  problems: SkillProblem[];
  durationMs: number;
}

interface ParsedFile {
  pack: ResolvedSkillPack;
  ref: SkillFileRef;
  skills: ParsedSkill[];
  problems: SkillProblem[];
  resources: string[];
}

type Outcome = 'inserted' | 'updated' | 'unchanged' | 'skipped';

/** One parsed skill waiting to be written, with the report its problems go to. */
interface ApplyItem {
  file: ParsedFile;
  skill: ParsedSkill;
  report: FileReport;
  onApplied(outcome: Exclude<Outcome, 'skipped'>): void;
}

export interface LoaderDeps {
  fs: FileSystemPort;
  store: SkillStore;
  clock: Clock;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  events: EventSink;
}

const PARSE_CONCURRENCY = 16;
/**
 * Writing parsed files to the store runs in slices of about this long, each its own transaction,
 * with a turn of the event loop between them: a large pack never blocks the host for long.
 */
const APPLY_SLICE_MS = 40;
/** A load that wrote at least this many skills merges the FTS index afterwards. */
const OPTIMIZE_AFTER_WRITES = 1000;

export class SkillPackLoader {
  private packs: ResolvedSkillPack[] = [];
  private readonly reports = new Map<string, PackReport>();

  constructor(private readonly deps: LoaderDeps) {}

  get resolvedPacks(): readonly ResolvedSkillPack[] {
    return this.packs;
  }

  packReports(): PackReport[] {
    return this.packs.map((pack) => this.reports.get(pack.name) ?? { pack, missing: false, files: [], problems: [], skillCount: 0, updatedCount: 0 });
  }

  /** The enabled pack whose folder holds `file` (deepest root wins). */
  packFor(file: string): ResolvedSkillPack | undefined {
    return this.packs
      .filter((pack) => pack.enabled && isInside(file, pack.root))
      .sort((a, b) => b.root.length - a.root.length)[0];
  }

  async loadAll(packs: readonly ResolvedSkillPack[], options: LoadOptions = {}): Promise<LoadSummary> {
    const started = performance.now();
    const { store } = this.deps;
    const enabled = packs.filter((pack) => pack.enabled);
    const scans = await Promise.all(enabled.map(async (pack) => ({ pack, scan: await scanPack(this.deps.fs, pack.root, pack.format) })));
    const work = scans.flatMap(({ pack, scan }) => scan.files.map((ref) => ({ pack, ref })));
    const parsed: ParsedFile[] = new Array(work.length);
    let done = 0;
    let cancelled = false;
    let next = 0;
    const worker = async () => {
      while (next < work.length && !cancelled) {
        const index = next++;
        const item = work[index];
        if (!item) break;
        parsed[index] = await this.readAndParse(item.pack, item.ref);
        done++;
        options.onProgress?.(done, work.length, item.ref.file);
        if (options.cancellation?.isCancellationRequested) cancelled = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARSE_CONCURRENCY, Math.max(work.length, 1)) }, worker));
    if (cancelled || options.cancellation?.isCancellationRequested) {
      return { cancelled: true, packs: [], removedCount: 0, problems: [], files: done, durationMs: performance.now() - started };
    }

    this.packs = [...packs];
    this.reports.clear();
    const claimed = new Map<string, { file: string; line: number }>();
    const counters = new Map<string, { inserted: number; updated: number; count: number }>();
    let removedCount = 0;
    for (const { pack, scan } of scans) {
      const report: PackReport = {
        pack, missing: scan.missing, files: [], skillCount: 0, updatedCount: 0,
        problems: [...scan.problems, ...(scan.missing && !pack.optional
          ? [makeProblem(pack.root, FILE_START, 'error', PROBLEM_CODES.packNotFound, `Skill pack "${pack.name}" not found: folder ${pack.root} does not exist.`)]
          : [])],
      };
      this.reports.set(pack.name, report);
      counters.set(pack.name, { inserted: 0, updated: 0, count: 0 });
    }
    const items: ApplyItem[] = [];
    for (const file of parsed) {
      if (!file) continue;
      const counter = counters.get(file.pack.name);
      const fileReport = this.fileReport(file);
      this.reports.get(file.pack.name)?.files.push(fileReport);
      for (const skill of file.skills) {
        items.push({ file, skill, report: fileReport, onApplied: (outcome) => {
          claimed.set(identityKey({ ...packScope(file.pack), name: skill.name }), { file: file.ref.file, line: skill.span.line });
          if (counter) {
            counter.count++;
            if (outcome === 'inserted') counter.inserted++;
            if (outcome === 'updated') counter.updated++;
          }
        } });
      }
    }
    await this.applySliced(items, (identity) => claimed.get(identityKey(identity)));
    store.transaction(() => {
      for (const identity of store.packSkills()) {
        if (!claimed.has(identityKey(identity))) {
          store.delete(identity);
          removedCount++;
        }
      }
    });
    let written = removedCount;
    for (const counter of counters.values()) written += counter.inserted + counter.updated;
    if (written >= OPTIMIZE_AFTER_WRITES) store.optimizeFts();

    const summary: LoadSummary = { cancelled: false, packs: [], removedCount, problems: [], files: parsed.length, durationMs: 0 };
    for (const { pack } of scans) {
      const report = this.reports.get(pack.name);
      const counter = counters.get(pack.name) ?? { inserted: 0, updated: 0, count: 0 };
      if (!report) continue;
      report.skillCount = counter.count;
      report.updatedCount = counter.inserted + counter.updated;
      // Loops, not `push(...spread)`: a spread of a very long list overflows the call stack.
      let problemCount = 0;
      for (const problem of report.problems) summary.problems.push(problem);
      problemCount += report.problems.length;
      for (const file of report.files) {
        for (const problem of file.problems) summary.problems.push(problem);
        problemCount += file.problems.length;
      }
      summary.packs.push({ name: pack.name, skillCount: counter.count, insertedCount: counter.inserted, updatedCount: counter.updated, removedCount: 0, problemCount });
      if (!(report.missing && pack.optional)) {
        this.deps.events.emit({ type: 'skill_pack_loaded', payload: { pack_name: pack.name, skill_count: counter.count, updated_count: counter.inserted + counter.updated } });
      }
    }
    summary.durationMs = performance.now() - started;
    this.deps.logger.info(`Skill packs loaded: ${claimed.size} skills from ${parsed.length} files in ${summary.packs.length} packs (${summary.problems.length} problems, ${removedCount} removed) in ${summary.durationMs.toFixed(0)} ms`);
    return summary;
  }

  /** Re-reads one changed (or created) file; only that file's skills are touched. */
  async reloadFile(file: string): Promise<FileChangeResult> {
    const started = performance.now();
    const absolute = path.resolve(file);
    const pack = this.packFor(absolute);
    const ignored: FileChangeResult = { status: 'ignored', file: absolute, inserted: [], updated: [], removed: [], problems: [], durationMs: 0 };
    if (!pack) return ignored;
    let target = absolute;
    let format = detectSkillFormat(absolute);
    if (!formatAdmits(pack.format, format)) {
      // A changed file under a SKILL.md folder's scripts/references/assets: re-list that skill.
      const owner = this.skillFolderOwning(absolute, pack);
      if (!owner) return ignored;
      target = owner;
      format = 'skill-md';
    }
    const stat = await this.deps.fs.stat(target).catch(() => undefined);
    if (!stat) return this.removeFile(target);
    const ref: SkillFileRef = { file: target, relativePath: toPosix(path.relative(pack.root, target)), format: format as DocumentFormat };
    const parsedFile = await this.readAndParse(pack, ref);
    const { store } = this.deps;
    const result: FileChangeResult = { status: 'reloaded', file: target, pack: pack.name, inserted: [], updated: [], removed: [], problems: [], durationMs: 0 };
    const fileReport = this.fileReport(parsedFile);
    const before = store.bySource(target);
    const kept = new Set<string>();
    await this.applySliced(parsedFile.skills.map((skill) => ({
      file: parsedFile, skill, report: fileReport, onApplied: (outcome: Exclude<Outcome, 'skipped'>) => {
        kept.add(identityKey({ ...packScope(pack), name: skill.name }));
        if (outcome === 'inserted') result.inserted.push(skill.name);
        if (outcome === 'updated') result.updated.push(skill.name);
      },
    })), (identity) => {
      const existing = store.get(identity.name, identity);
      return existing && existing.origin === 'pack' && existing.source_file !== target
        ? { file: existing.source_file, line: existing.source_line } : undefined;
    });
    store.transaction(() => {
      for (const row of before) {
        if (!kept.has(identityKey(row)) && store.get(row.name, row)?.source_file === target) {
          store.delete(row);
          result.removed.push(row.name);
        }
      }
    });
    this.replaceFileReport(pack, fileReport);
    result.problems = fileReport.problems;
    const report = this.reports.get(pack.name);
    if (report) {
      report.skillCount = store.packSkillCount(pack.name);
      report.updatedCount = result.inserted.length + result.updated.length;
    }
    this.deps.events.emit({ type: 'skill_pack_loaded', payload: { pack_name: pack.name, skill_count: report?.skillCount ?? 0, updated_count: result.inserted.length + result.updated.length } });
    result.durationMs = performance.now() - started;
    return result;
  }

  /** A file (or folder) was deleted: drop the pack skills it defined. */
  removeFile(file: string): FileChangeResult {
    const started = performance.now();
    const absolute = path.resolve(file);
    const { store } = this.deps;
    const removed: string[] = [];
    store.transaction(() => {
      for (const record of store.packSources()) {
        if (record.source_file === absolute || isInside(record.source_file, absolute)) {
          store.delete(record);
          removed.push(record.name);
        }
      }
    });
    for (const report of this.reports.values()) {
      report.files = report.files.filter((f) => f.file !== absolute && !isInside(f.file, absolute));
      report.skillCount = store.packSkillCount(report.pack.name);
    }
    const pack = this.packFor(absolute);
    return { status: 'removed', file: absolute, pack: pack?.name, inserted: [], updated: [], removed, problems: [], durationMs: performance.now() - started };
  }

  private async readAndParse(pack: ResolvedSkillPack, ref: SkillFileRef): Promise<ParsedFile> {
    try {
      const read = await readSkillFile(this.deps.fs, ref.file);
      if (!read.ok) return { pack, ref, skills: [], problems: [read.problem], resources: [] };
      const result = parseSkillDocument(read.text, ref.file, { format: ref.format, packName: pack.name, relativePath: ref.relativePath });
      const resources = ref.format === 'skill-md' && result.skills.length > 0 ? await listSkillResources(this.deps.fs, path.dirname(ref.file)) : [];
      return { pack, ref, skills: result.skills, problems: result.problems, resources };
    } catch (error) {
      // A file-system or parser failure costs this file only.
      return { pack, ref, skills: [], resources: [], problems: [makeProblem(ref.file, FILE_START, 'error', PROBLEM_CODES.loadFailed,
        `This file could not be loaded: ${error instanceof Error ? error.message : String(error)}.`)] };
    }
  }

  /**
   * Applies parsed skills in slices of about APPLY_SLICE_MS, each one transaction, yielding to
   * the host between slices. Each skill is written in its own savepoint: if anything about it
   * fails (a value the store cannot hold, a bug), only that skill is undone and reported; the
   * rest of its file and pack still load.
   */
  private async applySliced(items: readonly ApplyItem[], claimedElsewhere: (identity: SkillIdentity) => { file: string; line: number } | undefined): Promise<void> {
    const { store } = this.deps;
    let next = 0;
    while (next < items.length) {
      const sliceStart = performance.now();
      store.transaction(() => {
        while (next < items.length && performance.now() - sliceStart < APPLY_SLICE_MS) {
          const item = items[next++] as ApplyItem;
          const outcome = this.applySkillIsolated(item, claimedElsewhere);
          if (outcome !== 'skipped') item.onApplied(outcome);
        }
      });
      if (next < items.length) await yieldToHost();
    }
  }

  private applySkillIsolated(item: ApplyItem, claimedElsewhere: (identity: SkillIdentity) => { file: string; line: number } | undefined): Outcome {
    const { file, skill, report } = item;
    const listed = report.skills.length;
    try {
      return this.deps.store.transaction(() => this.applySkill(file, skill, report, claimedElsewhere));
    } catch (error) {
      report.skills.length = listed;
      const reason = error instanceof Error ? error.message : String(error);
      report.problems.push(makeProblem(file.ref.file, skill.span, 'error', PROBLEM_CODES.loadFailed,
        `Skill \`${skill.name}\` could not be stored: ${reason}. The rest of the file and pack is loaded; fix this definition.`, { skillName: skill.name }));
      this.deps.logger.warn(`Skill ${skill.name} (${file.ref.file}:${skill.span.line}) could not be stored: ${reason}`);
      return 'skipped';
    }
  }

  private fileReport(file: ParsedFile): FileReport {
    return { file: file.ref.file, pack: file.pack.name, relativePath: file.ref.relativePath, format: file.ref.format, skills: [], problems: [...file.problems] };
  }

  private replaceFileReport(pack: ResolvedSkillPack, fileReport: FileReport): void {
    let report = this.reports.get(pack.name);
    if (!report) {
      report = { pack, missing: false, files: [], problems: [], skillCount: 0, updatedCount: 0 };
      this.reports.set(pack.name, report);
    }
    report.files = [...report.files.filter((f) => f.file !== fileReport.file), fileReport]
      .sort((a, b) => (a.relativePath < b.relativePath ? -1 : 1));
  }

  /** Applies the upsert rules to one parsed skill; records problems on the file report. */
  private applySkill(file: ParsedFile, skill: ParsedSkill, report: FileReport, claimedElsewhere: (identity: SkillIdentity) => { file: string; line: number } | undefined): Outcome {
    const { store } = this.deps;
    const span = skill.nameSpan ?? skill.span;
    const scope = packScope(file.pack);
    const other = claimedElsewhere({ ...scope, name: skill.name });
    if (other) {
      report.problems.push(makeProblem(file.ref.file, span, 'error', PROBLEM_CODES.duplicateName,
        `Duplicate skill name \`${skill.name}\`: also defined at ${other.file}:${other.line}. The first definition is used; rename one of them.`,
        { skillName: skill.name, data: { otherFile: other.file, otherLine: other.line } }));
      return 'skipped';
    }
    // Names are unique per scope (RFC §3.2): only this pack's scope can clash.
    const existing = store.get(skill.name, scope);
    if (existing && existing.origin === 'learned') {
      report.problems.push(makeProblem(file.ref.file, span, 'warning', PROBLEM_CODES.shadowedByLearned,
        `A learned skill named \`${skill.name}\` exists; pack skills never overwrite learned ones. Rename this skill to load it.`, { skillName: skill.name }));
      return 'skipped';
    }
    const record = toRecord(skill, {
      origin: 'pack', originRef: `${file.pack.name}:${file.ref.relativePath}`, scopeMode: file.pack.scopeMode,
      tenantId: file.pack.tenantId, projectId: file.pack.projectId, packName: file.pack.name, workspace: file.pack.workspace,
      sourceFile: file.ref.file, resources: file.resources, now: this.deps.clock.now(), env: this.deps.env,
    }, existing);
    if (record.status === 'inactive') {
      report.problems.push(makeProblem(file.ref.file, skill.span, 'info', PROBLEM_CODES.missingRequirement,
        `Skill \`${skill.name}\` is inactive: ${record.status_reason}. Set them and reload to activate it.`, { skillName: skill.name }));
    }
    report.skills.push({ name: skill.name, line: skill.span.line });
    if (!existing) {
      store.upsert(record);
      return 'inserted';
    }
    if (existing.content_hash === record.content_hash) {
      if (!samePlacement(existing, record)) store.upsert({ ...record, updated_at: existing.updated_at });
      return 'unchanged';
    }
    if (!file.pack.updateExistingPackSkills && existing.pack_name === file.pack.name) return 'unchanged';
    store.upsert(record);
    return 'updated';
  }

  private skillFolderOwning(file: string, pack: ResolvedSkillPack): string | undefined {
    let dir = path.dirname(file);
    while (isInside(dir, pack.root)) {
      const base = path.basename(dir);
      if (base === 'scripts' || base === 'references' || base === 'assets') {
        const candidate = path.join(path.dirname(dir), 'SKILL.md');
        if (this.deps.store.bySource(candidate).length > 0) return candidate;
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    return undefined;
  }
}

/** The scope a pack's skills are stored in (their identity is this scope + name). */
function packScope(pack: ResolvedSkillPack): SkillScope {
  return makeScope(pack.scopeMode, pack.tenantId, pack.projectId);
}

/** One turn of the event loop, so the host handles other work between slices of a long load. */
function yieldToHost(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function samePlacement(a: SkillRecord, b: SkillRecord): boolean {
  return a.status === b.status && a.status_reason === b.status_reason && a.source_file === b.source_file
    && a.source_line === b.source_line && a.pack_name === b.pack_name && a.workspace === b.workspace
    && a.scope_mode === b.scope_mode && a.scope_tenant_id === b.scope_tenant_id && a.scope_project_id === b.scope_project_id
    && a.origin_ref === b.origin_ref;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
