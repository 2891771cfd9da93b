import * as path from 'node:path';
import type { Clock, EventSink, FileSystemPort, Logger } from '../../platform/ports';
import { HostSlices } from '../../platform/hostSlices';
import { ownedCopy, ownedString } from '../../platform/ownedText';
import { detectSkillFormat, parseSkillDocument } from './document/skillDocumentParser';
import type { SkillDocumentParse } from './document/offThreadParser';
import { countBatchTerms, termsCounted, type SkillTermCount } from './offThreadSkillTerms';
import type { DocumentFormat } from './document/parsedSkill';
import { isInside } from './skillPackSources';
import type { ResolvedSkillPack } from './skillPackSources';
import { formatAdmits, listSkillResources, readSkillFile, scanPack } from './skillPackScanner';
import type { ScanResult, SkillFileRef } from './skillPackScanner';
import { FILE_START, makeProblem, PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import type { SkillStore } from '../store/skillStore';
import { identityKey } from '../store/skillScope';
import { packScope, SkillPackWriter } from './skillPackWriter';
import { findUnchangedFiles, writeFingerprints, writeFingerprintsInSlices } from './unchangedFiles';
import { cleanLoad, problemsOnDemand, problemsWhenAsked, reportWithKeptProblems } from './keptProblems';
import type { CleanLoad, KnownErrorFree } from './keptProblems';
import { readInBatches } from './loadBatches';
import type { ParsedFile, WriteItem, WriteOutcome } from './skillPackWriter';

/**
 * Loads packs into the SkillStore (writes through SkillPackWriter) with the pack loading rules of
 * docs/contracts.md#skill-record:
 * new skill → insert; pack skill whose content hash changed → update when the pack allows it;
 * a learned skill is never overwritten; a skill whose file (or pack) is gone is removed; a name
 * defined twice is an error naming both files (the first definition, in pack order, wins).
 * `reloadFile` touches only the skills of that one file.
 */

interface CancellationSignal {
  readonly isCancellationRequested: boolean;
}

export interface LoadOptions {
  onProgress?: (done: number, total: number, file: string) => void;
  cancellation?: CancellationSignal;
  /**
   * Called once a complete load has stored every skill and removed the ones gone, before it
   * writes the files' fingerprints and the folders' listings (what only the next load reads):
   * an answer waiting for the load may run then. Awaited.
   */
  onSkillsStored?: () => Promise<void>;
}

export interface FileReport extends KnownErrorFree {
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
  /** Of `files`, those not read: unchanged since the last load (a warm start reads none of them). */
  unchangedFiles: number;
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

export interface LoaderDeps {
  fs: FileSystemPort;
  store: SkillStore;
  clock: Clock;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  events: EventSink;
  /** How files are parsed (large ones off the main thread in VS Code); default inline. */
  parse?: SkillDocumentParse;
  /** Where a load's parsed skills have their search terms counted, when not as they are stored: a parser thread (offThreadSkillTerms.ts). */
  countTerms?: SkillTermCount;
  /** Files a load reads before it writes them and drops their parses (loadBatches.ts); default WRITE_BATCH_FILES. */
  batchFiles?: number;
}

const PARSE_CONCURRENCY = 16;

/**
 * Files per batch of a load. Small: a batch's parses die young — read, written and dropped
 * before V8 moves them to its old generation, where they would pile up as garbage until a full
 * collection (at 10,000 real files, 16 files a batch peaked 40–70 MB lower than 256).
 */
const WRITE_BATCH_FILES = 16;

export class SkillPackLoader {
  private packs: ResolvedSkillPack[] = [];
  private readonly reports = new Map<string, PackReport>();
  private readonly writer: SkillPackWriter;

  constructor(private readonly deps: LoaderDeps) {
    this.writer = new SkillPackWriter(deps);
  }

  get resolvedPacks(): readonly ResolvedSkillPack[] {
    return this.packs;
  }

  packReports(): PackReport[] {
    return this.packs.map((pack) => this.reports.get(pack.name) ?? { pack, missing: false, files: [], problems: [], skillCount: 0, updatedCount: 0 });
  }

  /** The enabled pack whose folder holds `file` (deepest root wins). */
  packFor(file: string): ResolvedSkillPack | undefined {
    return this.packs.filter((pack) => pack.enabled && isInside(file, pack.root)).sort((a, b) => b.root.length - a.root.length)[0];
  }

  async loadAll(packs: readonly ResolvedSkillPack[], options: LoadOptions = {}): Promise<LoadSummary> {
    const started = performance.now();
    const { store } = this.deps;
    // A warm start lists only the folders that changed since the last load (skillFolderListings.ts).
    const folders = store.folders.memory();
    const enabled = packs.filter((pack) => pack.enabled);
    const scans = await Promise.all(enabled.map(async (pack) => ({ pack, scan: await scanPack(this.deps.fs, pack.root, pack.format, folders) })));
    const work = scans.flatMap(({ pack, scan }) => scan.files.map((ref) => ({ pack, ref })));
    // A warm start reads only what changed since the last load (unchangedFiles.ts).
    const check = await findUnchangedFiles(this.deps.fs, store, work);
    const reports = new Map(scans.map(({ pack, scan }) => [pack.name, packReport(pack, scan)]));
    const counters = new Map(scans.map(({ pack }) => [pack.name, { inserted: 0, updated: 0, count: 0 }]));
    const claimed = new Map<string, { file: string; line: number }>();
    const reportsByIndex: Array<FileReport | undefined> = new Array(work.length);
    /** Per work index of a file read and written: what its fingerprint keeps (undefined: read it again next time). */
    const cleanLoads: Array<CleanLoad | undefined> = new Array(work.length);
    for (const [index, skills] of check.unchanged) {
      const { pack, ref } = work[index]!;
      // Its warnings as the last read found them (the file is unchanged): the Skill Directory and
      // the editor's problems show them after a warm start as after a cold one.
      const report: FileReport = reportWithKeptProblems(
        { file: ref.file, pack: pack.name, relativePath: ref.relativePath, format: ref.format, skills: [] as FileReport['skills'] },
        check.fingerprints.get(ref.file),
      );
      reportsByIndex[index] = report;
      for (const skill of skills) {
        claimed.set(identityKey(skill), { file: ref.file, line: skill.line });
        report.skills.push({ name: skill.name, line: skill.line });
      }
      counters.get(pack.name)!.count += skills.length;
    }
    let done = check.unchanged.size;
    let cancelled = false;
    // Files are read synchronously when the file system allows it (readSkillFile): the workers
    // share one slice clock, so the host gets a turn between slices however many files there are.
    const slices = new HostSlices();
    const read = async (indices: readonly number[]) => {
      // Asked between batches too: a load cancelled while a batch was written reads no further.
      if (options.cancellation?.isCancellationRequested) cancelled = true;
      const parsed = new Map<number, ParsedFile>();
      let next = 0;
      const worker = async () => {
        while (next < indices.length && !cancelled) {
          await slices.pause();
          const index = indices[next++] as number;
          const item = work[index];
          if (!item) break;
          parsed.set(index, await this.readAndParse(item.pack, item.ref));
          done++;
          options.onProgress?.(done, work.length, item.ref.file);
          if (options.cancellation?.isCancellationRequested) cancelled = true;
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARSE_CONCURRENCY, Math.max(indices.length, 1)) }, worker));
      if (!cancelled && this.deps.countTerms) countBatchTerms(this.deps.countTerms, parsed.values());
      return cancelled ? undefined : parsed;
    };
    const untrust = (index: number) => {
      const { pack, ref } = work[index]!;
      const skills = check.unchanged.get(index) ?? [];
      for (const skill of skills) if (claimed.get(identityKey(skill))?.file === ref.file) claimed.delete(identityKey(skill));
      counters.get(pack.name)!.count -= skills.length;
      check.unchanged.delete(index);
      reportsByIndex[index] = undefined;
      done--;
    };
    const write = async (batch: ReadonlyMap<number, ParsedFile>) => {
      await termsCounted(batch.values());
      const items: WriteItem[] = [];
      for (const [index, file] of batch) {
        const report = reportOf(file);
        reportsByIndex[index] = report;
        const counter = counters.get(file.pack.name)!;
        for (const skill of file.skills) {
          items.push({
            file,
            skill,
            report,
            onApplied: (outcome) => {
              // Kept for the whole load: a key of its own, not one built on the name's slice of its file's text.
              claimed.set(ownedString(identityKey({ ...packScope(file.pack), name: skill.name })), { file: file.ref.file, line: skill.span.line });
              counter.count++;
              if (outcome === 'inserted') counter.inserted++;
              if (outcome === 'updated') counter.updated++;
            },
          });
        }
      }
      await this.writer.writeSliced(items, (identity) => claimed.get(identityKey(identity)));
      for (const [index, file] of batch) {
        const report = reportsByIndex[index]!;
        const clean = cleanLoad(report, file);
        cleanLoads[index] = clean;
        // Problems name skills and fields by slices of their file's text: the reports kept until
        // the next load keep them deflated, as the file's new fingerprint will (read back when
        // asked for, as after a warm start), or copied (ownedText.ts), not the file's text.
        if (clean && report.problems.every((p) => p.file === file.ref.file))
          problemsOnDemand(report, { file: file.ref.file, problems: clean.problems, errors: clean.errors });
        else if (report.problems.length > 0) report.problems = ownedCopy(report.problems);
      }
    };
    const release = () => this.deps.countTerms?.release?.();
    const completed = await readInBatches(work, check, this.deps.batchFiles ?? WRITE_BATCH_FILES, { read, untrust, write }).finally(release);
    const unchangedFiles = check.unchanged.size;
    if (!completed) {
      writeFingerprints(store, work, check, (i) => cleanLoads[i]);
      return { cancelled: true, packs: [], removedCount: 0, problems: [], files: done, unchangedFiles, durationMs: performance.now() - started };
    }

    this.packs = [...packs];
    this.reports.clear();
    for (const [name, report] of reports) this.reports.set(name, report);
    for (const report of reportsByIndex) if (report) reports.get(report.pack)?.files.push(report);
    let removedCount = 0;
    store.transaction(() => {
      for (const identity of store.packSkills()) {
        if (!claimed.has(identityKey(identity))) {
          store.delete(identity);
          removedCount++;
        }
      }
    });

    const summary: LoadSummary = { cancelled: false, packs: [], removedCount, problems: [], files: work.length, unchangedFiles, durationMs: 0 };
    const reported: PackReport[] = [];
    for (const { pack } of scans) {
      const report = reports.get(pack.name)!;
      const counter = counters.get(pack.name)!;
      report.skillCount = counter.count;
      report.updatedCount = counter.inserted + counter.updated;
      reported.push(report);
      summary.packs.push({
        name: pack.name,
        skillCount: counter.count,
        insertedCount: counter.inserted,
        updatedCount: counter.updated,
        removedCount: 0,
        problemCount: 0,
      });
      if (!(report.missing && pack.optional)) {
        this.deps.events.emit({
          type: 'skill_pack_loaded',
          payload: { pack_name: pack.name, skill_count: counter.count, updated_count: counter.inserted + counter.updated },
        });
      }
    }
    problemsWhenAsked(summary, reported);
    // The skills and the reports are complete: answers waiting for the load run before the
    // bookkeeping below (at 10,000 files, ≈ 0.2 s of a cold load's end), which no answer reads.
    await options.onSkillsStored?.();
    await writeFingerprintsInSlices(store, work, check, (i) => cleanLoads[i], slices);
    // The listings of this scan, kept once the load is complete (a cancelled one keeps the old:
    // a listing only saves a readdir, and the next load scans the folders again anyway).
    await store.folders.replaceAll(folders, slices);
    summary.durationMs = performance.now() - started;
    this.deps.logger.info(
      `Skill packs loaded: ${claimed.size} skills from ${work.length} files (${unchangedFiles} unchanged) in ${summary.packs.length} packs (${removedCount} removed) in ${summary.durationMs.toFixed(0)} ms`,
    );
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
    // Read again at the next load too, whatever this reload finds.
    this.deps.store.files.forget(target);
    const stat = await this.deps.fs.stat(target).catch(() => undefined);
    if (!stat) return this.removeFile(target);
    const ref: SkillFileRef = { file: target, relativePath: toPosix(path.relative(pack.root, target)), format: format as DocumentFormat };
    const parsedFile = await this.readAndParse(pack, ref);
    const { store } = this.deps;
    const result: FileChangeResult = { status: 'reloaded', file: target, pack: pack.name, inserted: [], updated: [], removed: [], problems: [], durationMs: 0 };
    const fileReport = reportOf(parsedFile);
    const before = store.bySource(target);
    const kept = new Set<string>();
    await this.writer.writeSliced(
      parsedFile.skills.map((skill) => ({
        file: parsedFile,
        skill,
        report: fileReport,
        onApplied: (outcome: Exclude<WriteOutcome, 'skipped'>) => {
          kept.add(identityKey({ ...packScope(pack), name: skill.name }));
          if (outcome === 'inserted') result.inserted.push(skill.name);
          if (outcome === 'updated') result.updated.push(skill.name);
        },
      })),
      (identity) => {
        const existing = store.get(identity.name, identity);
        return existing && existing.origin === 'pack' && existing.source_file !== target
          ? { file: existing.source_file, line: existing.source_line }
          : undefined;
      },
    );
    store.transaction(() => {
      for (const row of before) {
        if (!kept.has(identityKey(row)) && store.get(row.name, row)?.source_file === target) {
          store.delete(row);
          result.removed.push(row.name);
        }
      }
    });
    this.replaceFileReport(pack, fileReport);
    fileReport.problems = ownedCopy(fileReport.problems);
    result.problems = fileReport.problems;
    const report = this.reports.get(pack.name);
    if (report) {
      report.skillCount = store.packSkillCount(pack.name);
      report.updatedCount = result.inserted.length + result.updated.length;
    }
    this.deps.events.emit({
      type: 'skill_pack_loaded',
      payload: { pack_name: pack.name, skill_count: report?.skillCount ?? 0, updated_count: result.inserted.length + result.updated.length },
    });
    result.durationMs = performance.now() - started;
    return result;
  }

  /** A file (or folder) was deleted: drop the pack skills it defined. */
  removeFile(file: string): FileChangeResult {
    const started = performance.now();
    const absolute = path.resolve(file);
    const { store } = this.deps;
    const removed: string[] = [];
    store.files.forget(absolute);
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
      const options = { format: ref.format, packName: pack.name, relativePath: ref.relativePath };
      const result = this.deps.parse ? await this.deps.parse(read.text, ref.file, options) : parseSkillDocument(read.text, ref.file, options);
      // The scan saw which resource folders exist: none (most skills) means nothing to list.
      const listed = ref.format === 'skill-md' && result.skills.length > 0 && ref.resourceDirs?.length !== 0;
      const resources = listed ? await listSkillResources(this.deps.fs, path.dirname(ref.file)) : [];
      return { pack, ref, skills: result.skills, problems: result.problems, resources };
    } catch (error) {
      // A file-system or parser failure costs this file only.
      return {
        pack,
        ref,
        skills: [],
        resources: [],
        problems: [
          makeProblem(
            ref.file,
            FILE_START,
            'error',
            PROBLEM_CODES.loadFailed,
            `This file could not be loaded: ${error instanceof Error ? error.message : String(error)}.`,
          ),
        ],
      };
    }
  }

  private replaceFileReport(pack: ResolvedSkillPack, fileReport: FileReport): void {
    let report = this.reports.get(pack.name);
    if (!report) {
      report = { pack, missing: false, files: [], problems: [], skillCount: 0, updatedCount: 0 };
      this.reports.set(pack.name, report);
    }
    report.files = [...report.files.filter((f) => f.file !== fileReport.file), fileReport].sort((a, b) => (a.relativePath < b.relativePath ? -1 : 1));
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

/** A file's report before it is written: its parse's problems. */
function reportOf(file: ParsedFile): FileReport {
  return {
    file: file.ref.file,
    pack: file.pack.name,
    relativePath: file.ref.relativePath,
    format: file.ref.format,
    skills: [],
    problems: [...file.problems],
  };
}

/** A pack's report before its files are added: the scan's problems, and a missing folder's. */
function packReport(pack: ResolvedSkillPack, scan: ScanResult): PackReport {
  const missing =
    scan.missing && !pack.optional
      ? [makeProblem(pack.root, FILE_START, 'error', PROBLEM_CODES.packNotFound, `Skill pack "${pack.name}" not found: folder ${pack.root} does not exist.`)]
      : [];
  return { pack, missing: scan.missing, files: [], skillCount: 0, updatedCount: 0, problems: [...scan.problems, ...missing] };
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
