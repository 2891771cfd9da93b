import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { FileStat, FileSystemPort } from '../../platform/ports';

/** What a fingerprint records of a file's stat. */
type FileTimes = Pick<FileStat, 'size' | 'mtimeMs'>;
import { HostSlices } from '../../platform/hostSlices';
import type { SkillStore } from '../store/skillStore';
import type { FileFingerprint, StoredPackSkill } from '../store/skillFileFingerprints';
import { identityKey, sameScope } from '../store/skillScope';
import { listSkillResources } from './skillPackScanner';
import type { SkillFileRef } from './skillPackScanner';
import type { ResolvedSkillPack } from './skillPackSources';
import { packScope } from './skillPackWriter';
import type { ParsedFile } from './skillPackWriter';

/**
 * Which skill files a load need not read (a warm start): a file is trusted unchanged when its
 * fingerprint from the last load (skill_files) says it was loaded cleanly — no problem at all —
 * under the same pack settings, with the same size and modification time, and the store still
 * holds exactly the skills it defined then. Never trusted, so always read: a file modified
 * within RACY_MS of its fingerprint (a write inside the clock's resolution could hide), a file
 * with a skill that has `requires` (the environment may have changed), a SKILL.md whose resource
 * folders list differently now, and a file defining a name a file that was read also defines
 * (which definition wins depends on both; see `collisions`).
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
}

const RACY_MS = 2000;
const STAT_CONCURRENCY = 32;

/**
 * What a file's fingerprint is keyed on: the pack settings that shape its records (a change means
 * every file of the pack is read again) and, per skill it defined, the identity, line and content
 * hash as stored (a row changed or damaged since means the file is read again).
 */
function fileKey(pack: ResolvedSkillPack, skills: readonly StoredPackSkill[]): string {
  const defined = skills.map((s) => `${identityKey(s)}\u0000${s.line}\u0000${s.contentHash}`).sort();
  return createHash('sha256')
    .update(`[${packSettings(pack)},${JSON.stringify(defined)}]`)
    .digest('hex');
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

export async function findUnchangedFiles(fs: FileSystemPort, store: SkillStore, work: readonly WorkItem[]): Promise<UnchangedCheck> {
  const fingerprints = store.files.all();
  const bySource = fingerprints.size > 0 ? store.files.packSkillsByFile() : new Map<string, StoredPackSkill[]>();
  const stats: Array<FileTimes | undefined> = new Array(work.length);
  const unchanged = new Map<number, StoredPackSkill[]>();
  const consider = async (i: number, stat: FileStat | undefined) => {
    if (!stat || stat.kind !== 'file') return;
    const { pack, ref } = work[i] as WorkItem;
    stats[i] = { size: stat.size, mtimeMs: stat.mtimeMs };
    const fingerprint = fingerprints.get(ref.file);
    const skills = bySource.get(ref.file) ?? [];
    if (fingerprint && (await trusted(fs, fingerprint, stats[i] as FileTimes, pack, ref, skills))) unchanged.set(i, skills);
  };
  const { statSync } = fs;
  if (statSync) {
    // One file after another, synchronously, pausing for the host between slices.
    const slices = new HostSlices();
    for (let i = 0; i < work.length; i++) {
      await slices.pause();
      let stat: FileStat | undefined;
      try {
        stat = statSync((work[i] as WorkItem).ref.file);
      } catch {
        stat = undefined;
      }
      await consider(i, stat);
    }
    return { unchanged, stats, fingerprints };
  }
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const i = next++;
      await consider(i, await fs.stat((work[i] as WorkItem).ref.file).catch(() => undefined));
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, Math.max(work.length, 1)) }, worker));
  return { unchanged, stats, fingerprints };
}

async function trusted(
  fs: FileSystemPort,
  fingerprint: FileFingerprint,
  stat: FileTimes,
  pack: ResolvedSkillPack,
  ref: SkillFileRef,
  skills: readonly StoredPackSkill[],
): Promise<boolean> {
  if (fingerprint.size !== stat.size || fingerprint.mtimeMs !== stat.mtimeMs) return false;
  // The file system's clock, not the editor's: fingerprints compare modification times.
  if (stat.mtimeMs > fingerprint.recordedAt - RACY_MS) return false;
  const scope = packScope(pack);
  if (skills.length !== fingerprint.skillCount || skills.some((s) => !sameScope(s, scope) || s.requires !== '[]')) return false;
  if (fingerprint.packKey !== fileKey(pack, skills)) return false;
  if (ref.format !== 'skill-md' || skills.length === 0) return true;
  const resources = ref.resourceDirs?.length ? JSON.stringify(await listSkillResources(fs, path.dirname(ref.file))) : '[]';
  return skills.every((s) => s.resources === resources);
}

/**
 * Work indices of unchanged files that define a name (in their pack's scope) that a file being
 * read defines: they are read too, so the first definition in pack order wins as on a cold load.
 */
export function collisions(unchanged: ReadonlyMap<number, StoredPackSkill[]>, parsed: ReadonlyArray<ParsedFile | undefined>): number[] {
  const names = new Set<string>();
  for (const file of parsed) {
    if (!file) continue;
    const scope = packScope(file.pack);
    for (const skill of file.skills) names.add(identityKey({ ...scope, name: skill.name }));
  }
  const out: number[] = [];
  for (const [index, skills] of unchanged) if (skills.some((s) => names.has(identityKey(s)))) out.push(index);
  return out;
}

/** The fingerprints after a load: kept for files not read, new for files read and loaded without a problem. */
export function nextFingerprints(
  work: readonly WorkItem[],
  check: UnchangedCheck,
  loadedCleanly: (index: number) => number | undefined,
  storedByFile: () => ReadonlyMap<string, StoredPackSkill[]>,
  now: number,
): FileFingerprint[] {
  const out: FileFingerprint[] = [];
  let stored: ReadonlyMap<string, StoredPackSkill[]> | undefined;
  work.forEach(({ pack, ref }, i) => {
    if (check.unchanged.has(i)) {
      const kept = check.fingerprints.get(ref.file);
      if (kept) out.push(kept);
      return;
    }
    const stat = check.stats[i];
    const skillCount = loadedCleanly(i);
    if (!stat || skillCount === undefined) return;
    stored ??= storedByFile();
    const skills = stored.get(ref.file) ?? [];
    if (skills.length !== skillCount) return;
    out.push({ file: ref.file, packKey: fileKey(pack, skills), size: stat.size, mtimeMs: stat.mtimeMs, recordedAt: now, skillCount });
  });
  return out;
}
