import type { FileStat, FileSystemPort } from '../platform/ports';
import type { ResolvedSkillPack } from './packs/skillPackSources';
import { stillAsStored } from './packs/unchangedFiles';
import type { SkillOrigin } from './skillSchema';
import { readSourceFile } from './store/skillRows';
import type { SkillIdentity } from './store/skillScope';
import type { SkillStore } from './store/skillStore';
import { markStart } from '../platform/startTrace';

/**
 * Answers while a pack load is under way — the one rule every door shares (docs/contracts.md,
 * "Answers before the load's check ends"). A warm start opens the saved store, then the load
 * checks every file of the library against its fingerprint (10,000 `lstat`s and more); an answer
 * asked for meanwhile need not wait for that check when the store already holds every pack of the
 * load (each pack folder was walked by the last complete load, or does not exist): it is answered
 * from the stored index, and each pack skill it would return has its own file checked first, the
 * load's check of one file (`stillAsStored`). A skill whose file changed, went, or is now read
 * under other pack settings, a pack no longer loaded, or a name asked for that no stored skill
 * answers (`skill_get` of a skill added since) makes that answer wait for the load and run again,
 * so no answer returns a stale or deleted skill. What an early answer can miss: a skill added
 * since the last session, until the load ends. A load over a pack the store does not hold (a
 * cold start) makes every answer wait, as before.
 */

/** A skill an answer is about to return: a record (its file known) or an index entry (its doc id). */
interface ReturnedSkill extends SkillIdentity {
  origin: SkillOrigin;
  pack_name: string;
  source_file?: string;
  docId?: number;
}

/** Thrown inside an answer that must wait for the load: the answer runs again once `load` has settled. */
class AnswerAfterLoad extends Error {
  constructor(readonly load: Promise<void>) {
    super('This answer waits for the skill load under way.');
  }
}

/** What the queries ask before they return skills (nothing is asked while no load is under way). */
export interface AnswerVetting {
  /**
   * Resolves when these skills may be returned now; throws `AnswerAfterLoad` when one may be stale,
   * or when `missing` names asked for match no stored skill (one added since may answer them).
   * `skills` is called only while a load is under way.
   */
  vet(skills: () => readonly ReturnedSkill[], missing?: number): Promise<void>;
}

interface PendingLoad {
  /** The load's enabled packs, by name. */
  packs: ReadonlyMap<string, ResolvedSkillPack>;
  /** Settles when the load has (the pending state is cleared first). */
  settled: Promise<void>;
  /** Whether the store holds every pack of the load already (a warm start). */
  warm: Promise<boolean>;
  /** Per pack and file checked during this load: whether it is still as stored. */
  files: Map<string, Promise<boolean>>;
}

export class EarlyAnswers implements AnswerVetting {
  private pending: PendingLoad | undefined;

  constructor(
    private readonly fs: FileSystemPort,
    private readonly store: SkillStore,
  ) {}

  /** A load of `packs` is under way until `loaded` settles: the latest one asked for, whose result the store will hold. */
  begin(packs: readonly ResolvedSkillPack[], loaded: Promise<unknown>): void {
    const enabled = packs.filter((pack) => pack.enabled);
    const pending: PendingLoad = {
      packs: new Map(enabled.map((pack) => [pack.name, pack])),
      settled: loaded.then(
        () => this.end(pending),
        () => this.end(pending),
      ),
      warm: this.allStored(enabled),
      files: new Map(),
    };
    this.pending = pending;
  }

  /**
   * Runs one answer under the rule: at once when no load is under way; during a warm load at
   * once too (its skills vetted: `vet`), and again after the load if it had to wait; otherwise
   * after the load. `early: false` always waits for a load under way (answers whose skills are
   * not all vetted: lists, the directory).
   */
  async answer<T>(early: boolean, run: () => Promise<T>): Promise<T> {
    for (;;) {
      const pending = this.pending;
      const warm = pending && early && (await pending.warm);
      markStart('early:warm');
      if (pending && !warm) {
        await pending.settled;
        continue;
      }
      try {
        markStart('early:run');
        return await run();
      } catch (error) {
        if (!(error instanceof AnswerAfterLoad)) throw error;
        await error.load;
      }
    }
  }

  /** Settles when no load is under way any more. */
  async idle(): Promise<void> {
    while (this.pending) await this.pending.settled;
  }

  async vet(skills: () => readonly ReturnedSkill[], missing = 0): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    markStart('vet:start');
    const wait = new AnswerAfterLoad(pending.settled);
    if (missing > 0) throw wait;
    const checks: Array<Promise<boolean>> = [];
    for (const skill of skills()) {
      if (skill.origin !== 'pack') continue;
      const pack = pending.packs.get(skill.pack_name);
      const file = skill.source_file ?? (skill.docId === undefined ? '' : readSourceFile(this.store.db, skill.docId));
      // A pack the load no longer reads, or a skill without its file: what the load leaves is not known yet.
      if (!pack || !file) throw wait;
      const key = `${pack.name}\u0000${file}`;
      let check = pending.files.get(key);
      if (!check) {
        check = stillAsStored(this.fs, pack, file, this.store.files.of(file), this.store.files.packSkillsOf(file));
        pending.files.set(key, check);
      }
      checks.push(check);
    }
    const checked = await Promise.all(checks);
    markStart('vet:checked');
    if (checked.includes(false)) throw wait;
  }

  private async statNow(file: string): Promise<FileStat | undefined> {
    try {
      return this.fs.statSync ? this.fs.statSync(file) : await this.fs.stat(file);
    } catch {
      return undefined;
    }
  }

  private end(pending: PendingLoad): void {
    if (this.pending === pending) this.pending = undefined;
  }

  /** Every pack folder was walked by the last complete load (its listing is stored), or does not exist. */
  private async allStored(packs: readonly ResolvedSkillPack[]): Promise<boolean> {
    for (const pack of packs) {
      if (this.store.folders.listed(pack.root)) continue;
      // Synchronously where the port can: an asynchronous stat waits for a turn between the load's slices.
      const stat = await this.statNow(pack.root);
      if (stat?.kind === 'directory' || stat?.kind === 'symlink') return false;
    }
    return true;
  }
}
