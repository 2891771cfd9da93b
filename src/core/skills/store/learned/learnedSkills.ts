import * as path from 'node:path';
import type { ScopeMode } from '../../../config/settingsSchema';
import type { Clock } from '../../../platform/ports';
import type { SkillRecord } from '../../skillSchema';
import type { LearnedSkillJournal } from './learnedSkillJournal';
import { learnedRecord, skillId } from '../skillRecords';
import type { LearnedSkillInput } from '../skillRecords';
import { planRetirement } from './exportedLearnedSkills';
import { describeScope, identityKey, makeScope, sameScope, scopeRank, unreachableScope } from '../skillScope';
import type { SkillIdentity, SkillScope } from '../skillScope';
import type { SkillStore } from '../skillStore';
import type { SharedCounters, SharedSkillStore, SharedSnapshot } from './sharedSkillStore';
import { isSharedScope, localSharedSkills, mirrorSharedSkills } from './sharedSkillMirror';
import { underTenantRule } from './tenantRule';
import type { SharedSyncMark } from './sharedGeneration';

/**
 * Writes of learned skills: what a user (or the learning loop) taught. Identity is scope + name,
 * so a learned skill replaces only the skill of its own scope (a pack skill of that name in that
 * scope gives way; other scopes are untouched). Each write is journaled (serialised, see
 * LearnedSkillJournal) before it resolves, so it survives a rebuilt database.
 */
export interface LearnedSkillsDeps {
  store: SkillStore;
  journal: LearnedSkillJournal;
  clock: Clock;
  /** Scope used when the input names none (the `toolshed.skills.scopeMode` setting). */
  defaultScopeMode(): ScopeMode;
  /** Persists the database (the service's serialised save). */
  save(): Promise<void>;
  /**
   * Where learned skills of scope `tenant` and `global` live when every window shares them (the
   * extension's global storage); absent (the CLI, tests), every scope stays in `store`.
   */
  shared?: SharedSkillStore;
  /** Where this window keeps the shared store's generation it last synced with (sharedGeneration.ts); absent, it is kept in memory. */
  sharedMark?: SharedSyncMark;
  /**
   * This window's tenant (`toolshed.scope.tenantId`; '' for none). Of the shared store, a window
   * holds only the global skills and its own tenant's, so no surface (not even the sidebar) can
   * show another tenant's; it is also the default target of a promotion to `tenant`.
   */
  tenantId?(): string;
}

/** The scope of the request a learned skill comes from (`SkillRequestContext.scope`). */
export interface CallerScope {
  tenantId?: string;
  projectId?: string;
}

export class LearnedSkills {
  /** Learned records as last read; dropped on every learned write made here (usage counts may lag). */
  private cached: SkillRecord[] | undefined;
  /** Counters of the shared skills, summed over every window, as last read from the shared store. */
  private sharedTotals = new Map<string, SharedCounters>();
  /** Files of the pack skills that claimed a learned skill at the last retirement check (undefined: never checked). */
  private claimFiles: Set<string> | undefined;
  /** The shared store's generation this window's copies were last synced with (undefined: not read yet; null: never synced). */
  private syncedGeneration: string | null | undefined;

  constructor(private readonly deps: LearnedSkillsDeps) {}

  /**
   * The scope a learned-skill input asks for — ids it leaves out are filled from the caller's
   * request scope, when given — or an Error saying why no request could see it.
   */
  scopeOf(input: Pick<LearnedSkillInput, 'scope_mode' | 'tenant_id' | 'project_id'>, callerScope?: CallerScope): SkillScope {
    const scope = makeScope(
      input.scope_mode ?? this.deps.defaultScopeMode(),
      input.tenant_id ?? callerScope?.tenantId,
      input.project_id ?? callerScope?.projectId,
    );
    const unreachable = unreachableScope(scope);
    if (unreachable) throw new Error(`Learned skill not stored: ${unreachable}`);
    return scope;
  }

  async add(input: LearnedSkillInput, callerScope?: CallerScope): Promise<SkillRecord> {
    const name = input.name.trim();
    if (!name || !input.trigger.trim() || input.steps.filter((s) => s.trim()).length === 0) {
      throw new Error('A learned skill needs a name, a non-empty trigger and at least one step.');
    }
    const scope = this.scopeOf(input, callerScope);
    const { store, shared } = this.deps;
    const viaShared = shared !== undefined && isSharedScope(scope);
    if (viaShared) await this.syncShared();
    const existing = store.get(name, scope);
    const previous = existing?.origin === 'learned' ? existing : undefined;
    const learned = learnedRecord(input, scope, this.deps.clock.now(), previous);
    this.cached = undefined;
    if (viaShared) {
      await this.mirror(await shared.write({ upsert: [learned] }));
    } else {
      // A learned skill takes the name from a pack skill of its scope (packs never overwrite learned ones).
      store.transaction(() => {
        store.delete({ ...scope, name });
        store.upsert(learned);
      });
    }
    await this.deps.journal.write(store);
    await this.deps.save();
    return learned;
  }

  /**
   * Every learned skill, in every scope. Cached between learned writes: reading 10,000 rows costs
   * far more than a merge check may. `use_count`/`last_used` can lag behind; read one record
   * fresh with `get` before writing it back.
   */
  list(): SkillRecord[] {
    this.cached ??= this.deps.store.learnedRecords();
    return this.cached;
  }

  /** One learned record, read fresh from the store. */
  get(identity: SkillIdentity): SkillRecord | undefined {
    const record = this.deps.store.get(identity.name, identity);
    return record?.origin === 'learned' ? record : undefined;
  }

  /**
   * Stores learned records exactly as given (ids, counters, timestamps and `extra` untouched): a
   * merge, its undo, or an imported snapshot. Each replaces the record of its scope and name.
   * All or nothing: every record is checked first; one transaction, one journal write, one save.
   */
  async restore(records: readonly SkillRecord[]): Promise<void> {
    for (const record of records) {
      if (record.origin !== 'learned') throw new Error(`Only learned skills can be restored; "${record.name}" is a ${record.origin} skill.`);
      const unreachable = unreachableScope(record);
      if (unreachable) throw new Error(`Learned skill "${record.name}" not stored: ${unreachable}`);
    }
    if (records.length === 0) return;
    const { store, shared } = this.deps;
    this.cached = undefined;
    // Tenant and global skills live in the shared store: written anywhere else, the next sync
    // would take them away again (the shared store is the truth for those scopes).
    const viaShared = shared ? records.filter(isSharedScope) : [];
    if (shared && viaShared.length) await this.mirror(await shared.write({ upsert: viaShared }));
    store.upsertMany(viaShared.length ? records.filter((r) => !isSharedScope(r)) : records);
    await this.deps.journal.write(store);
    await this.deps.save();
  }

  /**
   * Retires the learned skills a loaded pack skill was exported from, and brings back retired
   * ones no pack skill claims any more (exportedLearnedSkills.ts). Returns the records changed;
   * they are journaled like every learned write. Usage counts are read fresh, never from the cache.
   */
  async reconcileExported(changedFile?: string): Promise<SkillRecord[]> {
    // A reload of a file that neither claims nor claimed a learned skill changes nothing here:
    // skip the scan (most reloads), keeping the file watcher's path as cheap as before.
    if (changedFile !== undefined && this.claimFiles && !this.touchesClaims(changedFile)) return [];
    const claims = this.deps.store.exportClaims();
    this.claimFiles = new Set(claims.map((c) => c.source_file));
    const stale = planRetirement(this.list(), claims);
    if (stale.length === 0) return [];
    const fresh = stale.map((r) => this.get(r)).filter((r): r is SkillRecord => r !== undefined);
    const changed = planRetirement(fresh, claims);
    await this.restore(changed);
    return changed;
  }

  /** Whether a changed (or deleted) file or folder holds, or held at the last check, an exported pack skill. */
  private touchesClaims(file: string): boolean {
    if (this.deps.store.hasExportClaim(file)) return true;
    for (const claimed of this.claimFiles ?? []) if (claimed === file || claimed.startsWith(`${file}${path.sep}`)) return true;
    return false;
  }

  /**
   * Removes a learned skill. Without a scope, the name must be unambiguous (one learned skill
   * of that name); with several, the caller must say which scope.
   */
  async remove(name: string, scope?: SkillScope): Promise<boolean> {
    const { store } = this.deps;
    const candidates = store.named(name).filter((r) => r.origin === 'learned' && (!scope || sameScope(r, scope)));
    if (candidates.length === 0) return false;
    if (candidates.length > 1) {
      throw new Error(`Several learned skills are named "${name}" (${candidates.map(describeScope).join('; ')}); say which scope to remove.`);
    }
    this.cached = undefined;
    const target = candidates[0] as SkillRecord;
    if (this.deps.shared && isSharedScope(target)) await this.mirror(await this.deps.shared.write({ remove: [target] }));
    else store.delete(target);
    await this.deps.journal.write(store);
    await this.deps.save();
    return true;
  }

  /**
   * Moves a learned skill to a wider scope: project → tenant → global. The tenant is
   * `tenantId`, else the skill's own. Refused (nothing changes) when the target is not wider, has
   * no tenant id, or already has a learned skill of that name. The copy in the target scope is
   * written before the source is deleted, so a crash in between leaves two copies, never none.
   */
  async promote(name: string, to: 'tenant' | 'global', options: { from?: SkillScope; tenantId?: string } = {}): Promise<SkillRecord> {
    const { store, shared } = this.deps;
    if (shared) await this.syncShared();
    const candidates = store.named(name).filter((r) => r.origin === 'learned' && (!options.from || sameScope(r, options.from)));
    if (candidates.length === 0)
      throw new Error(`No learned skill named "${name}"${options.from ? ` in ${describeScope(options.from)}` : ''}; only learned skills can be promoted.`);
    if (candidates.length > 1) {
      throw new Error(`Several learned skills are named "${name}" (${candidates.map(describeScope).join('; ')}); say which scope to promote.`);
    }
    const source = candidates[0] as SkillRecord;
    const target = makeScope(to, options.tenantId || source.scope_tenant_id || this.deps.tenantId?.());
    if (scopeRank(target) >= scopeRank(source)) {
      throw new Error(`"${name}" is in ${describeScope(source)}; it can only be promoted to a wider scope (project → tenant → global).`);
    }
    const unreachable = unreachableScope(target);
    if (unreachable)
      throw new Error(
        `"${name}" not promoted: ${to === 'tenant' ? 'no tenant id is set. Set `toolshed.scope.tenantId` (your team or organisation) in your user settings first.' : unreachable}`,
      );
    if (store.get(name, target)?.origin === 'learned') {
      throw new Error(`"${name}" not promoted: ${describeScope(target)} already has a learned skill of that name. Remove or rename one of them first.`);
    }
    const promoted: SkillRecord = { ...source, ...target, id: skillId('learned', name, target), updated_at: this.deps.clock.now() };
    if (shared) {
      const fromShared = isSharedScope(source);
      await this.mirror(await shared.write({ upsert: [promoted], remove: fromShared ? [source] : [] }));
      if (!fromShared) store.delete(source);
    } else {
      store.transaction(() => {
        store.delete({ ...target, name });
        store.upsert(promoted);
        store.delete(source);
      });
    }
    await this.deps.journal.write(store);
    await this.deps.save();
    return store.get(name, target) ?? promoted;
  }

  /**
   * Adds feedback increments for those named skills that are shared (tenant or global) learned
   * skills here, to the shared store's counters, so every window's 👍/👎 add up. Returns the
   * new totals of those skills; the others (project skills) are left to the caller's own store.
   */
  async addSharedCounters(deltas: readonly SharedCounters[]): Promise<SharedCounters[]> {
    const { shared } = this.deps;
    if (!shared || deltas.length === 0) return [];
    const sharedNames = new Set(
      this.list()
        .filter(isSharedScope)
        .map((r) => r.name),
    );
    const applied = deltas.filter((d) => sharedNames.has(d.name));
    if (applied.length === 0) return [];
    await this.mirror(await shared.write({ counters: applied }));
    return applied.map((d) => this.sharedTotals.get(d.name)).filter((c): c is SharedCounters => c !== undefined);
  }

  /** A shared skill's counters summed over every window (as of the last read or write of the shared store). */
  sharedCounters(name: string): SharedCounters | undefined {
    return this.sharedTotals.get(name);
  }

  /**
   * Brings this window's copy of the shared (tenant/global) learned skills up to date. On a store
   * this window has not synced with before (its first sync, or a store made afresh since: see
   * sharedGeneration.ts), first adds to it the skills only this window has. Returns how many
   * skills changed here. No-op without a shared store.
   */
  async syncShared(): Promise<number> {
    const { shared } = this.deps;
    if (!shared) return 0;
    const changed = await this.mirror(await shared.read());
    if (changed) {
      await this.deps.journal.write(this.deps.store);
      await this.deps.save();
    }
    return changed;
  }

  /**
   * Mirrors a shared snapshot into the window's store. A store this window has not synced with
   * (another generation: made afresh since, its old file damaged or gone) is first seeded from
   * this window's copy, so that what it lacks is restored there, not deleted here; skills deleted
   * in that store since it was made stay deleted (the store keeps their keys).
   */
  private async mirror(snapshot: SharedSnapshot): Promise<number> {
    this.cached = undefined; // the learned list (merge checks, export) is read again after any shared change
    const synced = await this.syncedWith();
    let current = snapshot.generation !== synced ? ((await this.seed(snapshot)) ?? snapshot) : snapshot;
    const before = current.generation;
    if (current.setAside.length) current = (await this.writeBackSetAside(current)) ?? current;
    // That write found the file made afresh once more: this window's copies go into that store too.
    if (current.generation !== before) current = (await this.seed(current)) ?? current;
    this.sharedTotals = new Map(current.counters.map((c) => [c.name, c]));
    const tenant = this.deps.tenantId?.() ?? '';
    const changed = mirrorSharedSkills(
      this.deps.store,
      current.records.filter((r) => r.scope_mode === 'global' || (tenant !== '' && r.scope_tenant_id === tenant)),
    );
    // Remembered once the copies are in that store and mirrored: a crash before it, or a mark
    // that cannot be written, costs one more seed (which only adds), never a skill.
    if (current.generation !== synced) {
      this.syncedGeneration = current.generation;
      await this.deps.sharedMark?.write(current.generation).catch(() => undefined);
    }
    return changed;
  }

  /** The generation this window last synced with (null: never), read from its mark once. */
  private async syncedWith(): Promise<string | null> {
    this.syncedGeneration ??= (await this.deps.sharedMark?.read()) ?? null;
    return this.syncedGeneration;
  }

  /**
   * Writes back this window's copy of each shared skill set aside as damaged (sharedSkillRows.ts):
   * the skill the user approved, never the damaged bytes. Without a copy here it stays aside,
   * neither shown nor deleted (and this window's copy, had it one, is not deleted by the mirror).
   */
  private async writeBackSetAside(snapshot: SharedSnapshot): Promise<SharedSnapshot | undefined> {
    const stored = new Set(snapshot.records.map(identityKey));
    const damaged = new Set(snapshot.setAside.flatMap((entry) => entry.identities));
    const copies = localSharedSkills(this.deps.store).filter((r) => damaged.has(identityKey(r)) && !stored.has(identityKey(r)));
    return copies.length && this.deps.shared ? this.deps.shared.write({ upsert: copies }) : undefined;
  }

  private async seed(snapshot: SharedSnapshot): Promise<SharedSnapshot | undefined> {
    const have = new Set(snapshot.records.map(identityKey));
    // The tenant rule of an import: another tenant's skill (one imported without --tenant, say)
    // is moved into this window's tenant or left out, never seeded where that tenant's windows load it.
    const tenant = this.deps.tenantId?.() ?? '';
    const copies = localSharedSkills(this.deps.store).flatMap((r) => {
      const placed = underTenantRule(r, tenant);
      return 'leftOut' in placed ? [] : [placed.record];
    });
    // Written only when the store lacks one, but every copy is sent: the write, under the store's
    // lock, adds each where the file it finds then (made afresh again, perhaps) has none of that
    // key and none was deleted since it was made.
    return copies.some((r) => !have.has(identityKey(r))) && this.deps.shared ? this.deps.shared.write({ seed: copies }) : undefined;
  }
}
