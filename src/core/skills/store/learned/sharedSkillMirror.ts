import type { SkillRecord } from '../../skillSchema';
import { sameContent } from './learnedSkillJournal';
import { identityKey } from '../skillScope';
import type { SkillStore } from '../skillStore';

/** Whether a learned record lives in the shared store (tenant or global scope) rather than the workspace's. */
export function isSharedScope(record: Pick<SkillRecord, 'scope_mode'>): boolean {
  return record.scope_mode !== 'project';
}

/**
 * Makes the window's store hold exactly the shared store's learned skills (tenant and global
 * scope): new and changed ones are written, ones the shared store no longer has are deleted.
 * Usage counters of a skill this window already holds are kept (they count this window's use).
 * Pack skills and project skills are never touched. Returns how many skills changed.
 */
export function mirrorSharedSkills(store: SkillStore, shared: readonly SkillRecord[]): number {
  const wanted = new Map(shared.map((r) => [identityKey(r), r]));
  let changed = 0;
  store.transaction(() => {
    // From the in-memory index: reading every stored record to find the learned ones read the
    // whole library (0.2–0.9 s of each window's start at 10,000 skills).
    const local = [...store.everySkill()].filter((skill) => skill.origin === 'learned' && isSharedScope(skill));
    for (const skill of local) {
      if (!wanted.has(identityKey(skill))) {
        store.delete(skill);
        changed++;
      }
    }
    for (const record of wanted.values()) {
      const existing = store.get(record.name, record);
      if (existing?.origin === 'learned' && sameContent(existing, record)) continue;
      const usage = existing?.origin === 'learned' ? { use_count: existing.use_count, last_used: existing.last_used } : {};
      // A learned skill takes its name from a pack skill of the same scope, as in LearnedSkills.add.
      if (existing) store.delete(existing);
      store.upsert({ ...record, ...usage, origin: 'learned' });
      changed++;
    }
  });
  return changed;
}

/** Learned skills of this window's store that belong in the shared store (to seed a new or rebuilt one). */
export function localSharedSkills(store: SkillStore): SkillRecord[] {
  return store.learnedRecords().filter(isSharedScope);
}
