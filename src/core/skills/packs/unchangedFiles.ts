import { hash } from 'node:crypto';
import * as path from 'node:path';
import type { FileStat, FileSystemPort } from '../../platform/ports';
import { HostSlices } from '../../platform/hostSlices';
import { markStart } from '../../platform/startTrace';
import { PROBLEM_CODES } from './document/skillProblems';
import type { SkillStore } from '../store/skillStore';
import type { FileFingerprint, StoredPackSkill } from '../store/skillFileFingerprints';
import { identityKey, sameScope } from '../store/skillScope';
import { formatAdmits, listSkillResources } from './skillPackScanner';
import { detectSkillFormat } from './document/skillDocumentParser';
import type { SkillFileRef } from './skillPackScanner';
import type { ResolvedSkillPack } from './skillPackSources';
import { packScope } from './skillPackWriter';
import type { ParsedFile } from './skillPackWriter';
import { storedProblems, withErrorFlag } from './keptProblems';
import type { CleanLoad } from './keptProblems';

/** What a fingerprint records of a file's stat. */
type FileTimes = Pick<FileStat, 'size' | 'mtimeMs'>;

/**
 * Which skill files a load need not read (a warm start): a file is trusted unchanged when its
 * fingerprint from the last load (skill_files) says it was loaded cleanly — no error but a
 * duplicate name (below) or one its own text decides (`TEXT_ERRORS`), the problems kept with the
 * fingerprint — under the same pack settings, with the same size and modification time, and the store still
 * holds exactly the skills it defined then. Never trusted, so always read: a file modified
 * within RACY_MS of its fingerprint (a write inside the clock's resolution could hide), a file
 * with a skill that has `requires` (the environment may have changed), a SKILL.md whose resource
 * folders list differently now, and a file defining a name a file that was read also defines
 * (which definition wins depends on both; see `collisions`). A file that lost a name to an
 * earlier definition (`duplicate-name`) is trusted only while that earlier file is trusted and
 * still comes first in load order: real libraries hold many such copies, and reading every one
 * (with the file it lost to) on every start read a fifth of a real library again.
 */

export interface WorkItem {
  pack: ResolvedSkillPack;
  ref: SkillFileRef;
}

export interface UnchangedCheck {
  /** Per work index: the stored skills of a file that need not be read. */
  unchanged: Map<number, StoredPackSkill[]>;
  /** Per work index: its stat before it was read (what a new fingerprint records). */
  stats: Array<FileTimes | undefined>;
  fingerprints: Map<string, FileFingerprint>;
  /** Per work index of a trusted file that lost names to earlier definitions: the work indices of those files. */
  winners: Map<number, number[]>;
  /** Per identity (`identityKey`), the work indices of the unchanged files that hold it: made at the first `collisions`. */
  holders?: Map<string, number[]>;
}

const RACY_MS = 2000;
/** Files the duplicate rule looks at between two looks at the slice clock. */
const ENTRIES_PER_LOOK = 16;
const STAT_CONCURRENCY = 32;

/**
 * What a file's fingerprint is keyed on: the pack settings that shape its records (a change means
 * every file of the pack is read again) and, per skill it defined, the identity, line and content
 * hash as stored (a row changed or damaged since means the file is read again).
 */
function fileKey(pack: ResolvedSkillPack, skills: readonly StoredPackSkill[]): string {
  const defined = skills.map((s) => `${identityKey(s)}\u0000${s.line}\u0000${s.contentHash}`).sort();
  // One-shot hashing (no Hash object per file): a warm start keys every file it trusts.
  return hash('sha256', `[${packSettings(pack)},${JSON.stringify(defined)}]`, 'hex');
}

/** Per pack (object), its settings as JSON text: asked once per file of the pack. */
const settingsText = new WeakMap<ResolvedSkillPack, string>();

function packSettings(pack: ResolvedSkillPack): string {
  let text = settingsText.get(pack);
  if (text === undefined) {
    text = JSON.stringify(
      JSON.stringify([
        pack.name,
        pack.root,
        pack.format ?? '',
        pack.scopeMode,
        pack.tenantId ?? '',
        pack.projectId ?? '',
        pack.workspace,
        pack.updateExistingPackSkills,
      ]),
    );
    settingsText.set(pack, text);
  }
  return text;
}

/**
 * The check, on the extension host's thread in VS Code: its reads of every fingerprint and every
 * pack skill's row (≈ 120 ms in one stretch at 10,000 files, which a crossing of the workbench's
 * first tool call could wait behind), its stats and its duplicate rule run in slices of `slices`,
 * the host given a turn between them.
 */
export async function findUnchangedFiles(
  fs: FileSystemPort,
  store: SkillStore,
  work: readonly WorkItem[],
  slices: Pick<HostSlices, 'pause'> = new HostSlices(),
): Promise<UnchangedCheck> {
  markStart('check:start');
  const fingerprints = await store.files.allInSlices(slices);
  const bySource = fingerprints.size > 0 ? await store.files.packSkillsByFileInSlices(slices) : new Map<string, StoredPackSkill[]>();
  markStart('check:rows');
  const stats: Array<FileTimes | undefined> = new Array(work.length);
  const unchanged = new Map<number, StoredPackSkill[]>();
  /** Records the file's stat and whether it is unchanged; a promise only when a folder must be listed to tell. */
  const consider = (i: number, stat: FileStat | undefined): Promise<void> | undefined => {
    if (!stat || stat.kind !== 'file') return undefined;
    const { pack, ref } = work[i] as WorkItem;
    stats[i] = { size: stat.size, mtimeMs: stat.mtimeMs };
    const fingerprint = fingerprints.get(ref.file);
    if (!fingerprint) return undefined;
    const skills = bySource.get(ref.file) ?? [];
    // Synchronous unless a folder must be listed: a warm start considers every file of the library.
    const verdict = trusted(fingerprint, stats[i] as FileTimes, pack, ref, skills);
    if (verdict === true) unchanged.set(i, skills);
    if (verdict !== 'resources') return undefined;
    return sameResources(fs, ref, skills).then((same) => {
      if (same) unchanged.set(i, skills);
    });
  };
  const { statSync } = fs;
  if (statSync) {
    // One file after another, synchronously, pausing for the host between slices.
    for (let i = 0; i < work.length; i++) {
      await slices.pause();
      let stat: FileStat | undefined;
      try {
        stat = statSync((work[i] as WorkItem).ref.file);
      } catch {
        stat = undefined;
      }
      const listing = consider(i, stat);
      if (listing) await listing;
    }
    return withWinners(work, { unchanged, stats, fingerprints, winners: new Map() }, slices);
  }
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const i = next++;
      await consider(i, await fs.stat((work[i] as WorkItem).ref.file).catch(() => undefined));
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, Math.max(work.length, 1)) }, worker));
  return withWinners(work, { unchanged, stats, fingerprints, winners: new Map() }, slices);
}

/**
 * Records, for each trusted file that lost names to earlier definitions, which files it lost to;
 * one whose earlier file is gone, not trusted, or no longer earlier in load order is not trusted.
 */
async function withWinners(work: readonly WorkItem[], check: UnchangedCheck, slices: Pick<HostSlices, 'pause'>): Promise<UnchangedCheck> {
  const indexOf = new Map<string, number>();
  work.forEach(({ ref }, i) => indexOf.set(ref.file, i));
  let looked = 0;
  for (const index of check.unchanged.keys()) {
    // A file of another format reads its kept problems back (inflated, parsed): the host gets its turns.
    if (++looked % ENTRIES_PER_LOOK === 0) await slices.pause();
    const { ref } = work[index] as WorkItem;
    const fingerprint = check.fingerprints.get(ref.file);
    // A SKILL.md defines one skill: one that is in the store lost no name (its problems stay unread).
    if (ref.format === 'skill-md' && fingerprint !== undefined && fingerprint.skillCount > 0) continue;
    const lostTo = storedProblems(fingerprint)
      .filter((p) => p.code === PROBLEM_CODES.duplicateName)
      .map((p) => indexOf.get(String(p.data?.otherFile)) ?? -1);
    if (lostTo.length === 0) continue;
    if (lostTo.some((winner) => winner < 0 || winner >= index)) check.unchanged.delete(index);
    else check.winners.set(index, lostTo);
  }
  for (const index of lostToUntrusted(check)) check.unchanged.delete(index);
  markStart('check:done');
  return check;
}

/** Trusted files that lost a name to a file no longer trusted (which must then be read with it). */
function lostToUntrusted(check: UnchangedCheck): number[] {
  const out: number[] = [];
  for (;;) {
    const next = [...check.winners]
      .filter(([index, winners]) => check.unchanged.has(index) && winners.some((w) => !check.unchanged.has(w)))
      .map(([index]) => index);
    if (next.length === 0) return out;
    for (const index of next) {
      check.unchanged.delete(index);
      out.push(index);
    }
  }
}

/** Whether the file is trusted unchanged; `'resources'` when that depends on its skill folder's resources (`sameResources`). */
function trusted(
  fingerprint: FileFingerprint,
  stat: FileTimes,
  pack: ResolvedSkillPack,
  ref: SkillFileRef,
  skills: readonly StoredPackSkill[],
): boolean | 'resources' {
  if (!asFingerprinted(fingerprint, stat, pack, skills)) return false;
  if (ref.format !== 'skill-md' || skills.length === 0) return true;
  if (!ref.resourceDirs?.length) return skills.every((s) => s.resources === '[]');
  return 'resources';
}

/** The file's stat and its stored skills are what its fingerprint recorded, under these pack settings. */
function asFingerprinted(fingerprint: FileFingerprint, stat: FileTimes, pack: ResolvedSkillPack, skills: readonly StoredPackSkill[]): boolean {
  if (fingerprint.size !== stat.size || fingerprint.mtimeMs !== stat.mtimeMs) return false;
  // The file system's clock, not the editor's: fingerprints compare modification times.
  if (stat.mtimeMs > fingerprint.recordedAt - RACY_MS) return false;
  const scope = packScope(pack);
  if (skills.length !== fingerprint.skillCount || skills.some((s) => !sameScope(s, scope) || s.requires !== '[]')) return false;
  return fingerprint.packKey === fileKey(pack, skills);
}

/**
 * One stored file checked as the load's check would trust it (an answer given before that check
 * ends: earlyAnswers.ts): its `lstat` against its fingerprint, under the pack the load reads it
 * with, and a SKILL.md's resource folders listed again (the load's scan would see one added).
 */
export async function stillAsStored(
  fs: FileSystemPort,
  pack: ResolvedSkillPack,
  file: string,
  fingerprint: FileFingerprint | undefined,
  skills: readonly StoredPackSkill[],
): Promise<boolean> {
  if (!fingerprint) return false;
  let stat: FileStat | undefined;
  try {
    stat = fs.statSync ? fs.statSync(file) : await fs.stat(file);
  } catch {
    stat = undefined;
  }
  const format = detectSkillFormat(path.basename(file));
  if (stat?.kind !== 'file' || !formatAdmits(pack.format, format)) return false;
  if (!asFingerprinted(fingerprint, stat, pack, skills)) return false;
  return format !== 'skill-md' || skills.length === 0 || sameResources(fs, { file, relativePath: '', format }, skills, true);
}

/** Whether a SKILL.md's skills still list the resources its folder holds now (`now`: listed synchronously, see `listSkillResources`). */
async function sameResources(fs: FileSystemPort, ref: SkillFileRef, skills: readonly StoredPackSkill[], now = false): Promise<boolean> {
  const resources = JSON.stringify(await listSkillResources(fs, path.dirname(ref.file), now));
  return skills.every((s) => s.resources === resources);
}

/**
 * Work indices of unchanged files that define a name (in their pack's scope) that a file being
 * read defines, or that lost a name to a file being read: they are read too, so the first
 * definition in pack order wins as on a cold load.
 */
export function collisions(check: UnchangedCheck, parsed: ReadonlyArray<ParsedFile | undefined>): number[] {
  const { unchanged } = check;
  // Asked once per batch of a load: the unchanged files' names are indexed once, not listed each time.
  const holders = (check.holders ??= holdersOf(unchanged));
  const lost = new Set<number>();
  for (const file of parsed) {
    if (!file) continue;
    const scope = packScope(file.pack);
    for (const skill of file.skills)
      for (const index of holders.get(identityKey({ ...scope, name: skill.name })) ?? []) if (unchanged.has(index)) lost.add(index);
  }
  const out = [...lost].sort((a, b) => a - b);
  for (const [index, winners] of check.winners)
    if (unchanged.has(index) && !lost.has(index) && winners.some((w) => lost.has(w) || !unchanged.has(w))) out.push(index);
  return out;
}

function holdersOf(unchanged: ReadonlyMap<number, readonly StoredPackSkill[]>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [index, skills] of unchanged) {
    for (const skill of skills) {
      const key = identityKey(skill);
      const list = out.get(key);
      if (list) list.push(index);
      else out.set(key, [index]);
    }
  }
  return out;
}

/**
 * A load's fingerprints written in one transaction (a cancelled load's: what it wrote stays, with
 * the fingerprints of the files written, and the next load reads the rest).
 */
export function writeFingerprints(
  store: SkillStore,
  work: readonly WorkItem[],
  check: UnchangedCheck,
  loadedCleanly: (index: number) => CleanLoad | undefined,
): void {
  // Wall-clock time: fingerprints are compared with the file system's modification times.
  const rows = nextFingerprints(work, check, loadedCleanly, () => store.files.packSkillsByFile(), Date.now());
  store.transaction(() => store.files.replaceAll(rows, check.fingerprints));
}

/**
 * A complete load's fingerprints written in slices, as its files were read: at 10,000 files the
 * whole write held the extension host's thread ≈ 0.2 s in one stretch.
 */
export async function writeFingerprintsInSlices(
  store: SkillStore,
  work: readonly WorkItem[],
  check: UnchangedCheck,
  loadedCleanly: (index: number) => CleanLoad | undefined,
  slices: Pick<HostSlices, 'pause'>,
): Promise<void> {
  const stored = check.unchanged.size < work.length ? await store.files.packSkillsByFileInSlices(slices) : new Map<string, StoredPackSkill[]>();
  await store.files.replaceAllInSlices(
    nextFingerprints(work, check, loadedCleanly, () => stored, Date.now()),
    check.fingerprints,
    slices,
  );
}

/** The fingerprints after a load: kept for files not read, new for files read and loaded cleanly (`CleanLoad`). */
function nextFingerprints(
  work: readonly WorkItem[],
  check: UnchangedCheck,
  loadedCleanly: (index: number) => CleanLoad | undefined,
  storedByFile: () => ReadonlyMap<string, StoredPackSkill[]>,
  now: number,
): FileFingerprint[] {
  const out: FileFingerprint[] = [];
  let stored: ReadonlyMap<string, StoredPackSkill[]> | undefined;
  work.forEach(({ pack, ref }, i) => {
    if (check.unchanged.has(i)) {
      const kept = check.fingerprints.get(ref.file);
      if (kept) out.push(withErrorFlag(kept));
      return;
    }
    const stat = check.stats[i];
    const clean = loadedCleanly(i);
    if (!stat || clean === undefined) return;
    stored ??= storedByFile();
    const skills = stored.get(ref.file) ?? [];
    if (skills.length !== clean.skillCount) return;
    out.push({
      file: ref.file,
      packKey: fileKey(pack, skills),
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      recordedAt: now,
      skillCount: clean.skillCount,
      problems: clean.problems,
      errors: clean.errors,
    });
  });
  return out;
}
