import type { SkillRecord } from '../../skills/skillSchema';
import { moveRecord, underTenantRule } from '../../skills/store/learned/tenantRule';
import { sameScope } from '../../skills/store/skillScope';
import type { LearnedSkillPort } from '../learnedSkillPort';
import { mergeRecords, NO_COUNTERS, sourceHashesOf, sourcesOf } from '../merge/lineage';
import type { LearningStore } from '../learningStore';
import { MergeIndex } from '../merge/mergeIndex';
import { parseSnapshot, SnapshotError, writeSnapshot } from './snapshot';
import type { LearnedLine } from './snapshot';

/**
 * Export and import of learned skills between a snapshot and the two stores: the
 * skill store (learned records, lineage inside) and learning's own store (counters, proposals).
 * Import follows the approval rules: an identical skill is skipped, a near-duplicate merges (with
 * lineage), a pack skill is never overwritten, a same-name learned skill that is not similar is a
 * reported conflict. The whole snapshot is checked and planned before anything is written, so a
 * refused import changes nothing.
 */

export interface SnapshotStores {
  skills: LearnedSkillPort;
  store: LearningStore;
  mergeThreshold: number;
}

export function exportLearnedSnapshot(
  stores: SnapshotStores,
  options: { toolshedVersion: string; now: number; projectId?: string },
): { text: string; learned: number; proposals: number } {
  const inScope = (r: SkillRecord) => options.projectId === undefined || (r.scope_mode === 'project' && r.scope_project_id === options.projectId);
  const learned: LearnedLine[] = stores.skills
    .learnedSkills()
    .filter(inScope)
    .sort((a, b) => (scopeKey(a) < scopeKey(b) ? -1 : scopeKey(a) > scopeKey(b) ? 1 : 0))
    .map((record) => ({ record, counters: stores.store.counters(record.name) }));
  const proposals = [...stores.store.proposals('proposed'), ...stores.store.proposals('approved')].sort((a, b) => (a.id < b.id ? -1 : 1));
  const text = writeSnapshot({
    header: {
      toolshed_version: options.toolshedVersion,
      scope: options.projectId === undefined ? 'all' : `project:${options.projectId}`,
      exported_at: options.now,
    },
    learned,
    proposals,
  });
  return { text, learned: learned.length, proposals: proposals.length };
}

export interface ImportReport {
  added: string[];
  merged: Array<{ name: string; into: string }>;
  unchanged: string[];
  /** Same name as a learned skill here but not similar enough to merge: yours was kept. */
  conflicts: string[];
  proposalsAdded: number;
  proposalsSkipped: number;
  /** Tenant skills of another tenant, moved into this window's tenant (`from`: the tenant they came from). */
  movedToTenant: Array<{ name: string; from: string }>;
  /** Tenant skills of another tenant left out: this window has no tenant id to move them to. */
  otherTenant: string[];
}

/**
 * Imports a snapshot. `projectId` moves project-scope skills into this project (a snapshot from
 * another workspace). `tenantId` is the importing window's tenant ('' for none): a tenant skill
 * of another tenant goes to the store every window of the tenant shares, so it is moved into
 * this tenant, or left out when there is none — never written where another tenant's windows
 * would load it. `dryRun` plans and reports without writing. Throws SnapshotError (nothing
 * changed) for a corrupt, truncated, newer or oversized snapshot, a name given twice, or names
 * taken by pack skills.
 */
export async function importLearnedSnapshot(
  stores: SnapshotStores,
  bytes: Uint8Array,
  options: { projectId?: string; tenantId?: string; dryRun?: boolean } = {},
): Promise<ImportReport> {
  const snapshot = parseSnapshot(bytes);
  const report: ImportReport = {
    added: [],
    merged: [],
    unchanged: [],
    conflicts: [],
    proposalsAdded: 0,
    proposalsSkipped: 0,
    movedToTenant: [],
    otherTenant: [],
  };
  const incoming: LearnedLine[] = [];
  const incomingKeys = new Set<string>();
  for (const line of snapshot.learned) {
    let record = options.projectId === undefined ? line.record : moveRecord(line.record, 'project', options.projectId);
    if (options.tenantId !== undefined) {
      const placed = underTenantRule(record, options.tenantId);
      if ('leftOut' in placed) {
        report.otherTenant.push(record.name);
        continue;
      }
      if (placed.movedFrom !== undefined) report.movedToTenant.push({ name: record.name, from: placed.movedFrom });
      record = placed.record;
    }
    // Two tenants' skills of one name, both moved here: the first is imported, the second is a conflict.
    if (incomingKeys.has(scopeKey(record))) {
      report.conflicts.push(record.name);
      continue;
    }
    incomingKeys.add(scopeKey(record));
    incoming.push({ ...line, record });
  }

  const packSkills = stores.skills.packSkillNames();
  const packNames = [...new Set(incoming.map((l) => l.record.name).filter((name) => packSkills.has(name)))];
  if (packNames.length) {
    throw new SnapshotError(
      `Not imported: ${packNames.length === 1 ? 'a pack skill is' : `${packNames.length} pack skills are`} already named ${packNames
        .slice(0, 10)
        .map((n) => `"${n}"`)
        .join(
          ', ',
        )}${packNames.length > 10 ? ', …' : ''}, and Toolshed never overwrites pack skills. Rename ${packNames.length === 1 ? 'that skill' : 'those skills'} in the snapshot (or the pack) and import again.`,
    );
  }

  // Incoming skills merge into what this store held before the import, never into each other:
  // the snapshot's own skills were kept apart where they came from (a round trip keeps them so).
  const current = new Map(stores.skills.learnedSkills().map((r) => [scopeKey(r), r]));
  const planned = new Map<string, SkillRecord>();
  const counterDeltas: Array<{ name: string; counters: NonNullable<LearnedLine['counters']> }> = [];
  const index = new MergeIndex();
  index.sync([...current.values()]);
  /** The latest state of a record of this store: planned by this import, else read fresh. */
  const latest = (record: SkillRecord) => planned.get(scopeKey(record)) ?? stores.skills.learnedSkill(record) ?? record;
  for (const { record, counters } of incoming) {
    const delta = counters ?? { name: record.name, ...NO_COUNTERS, last_used: 0, last_validated: 0 };
    const sameName = current.get(scopeKey(record));
    const hashes = sourceHashesOf(record);
    const probe = { trigger: record.trigger, steps: record.steps, source_hash: hashes[0]! };
    let found: SkillRecord | undefined;
    if (sameName) {
      found = sameName.content_hash === record.content_hash ? sameName : index.best(probe, stores.mergeThreshold, (r) => r.id === sameName.id)?.record;
      if (!found) {
        report.conflicts.push(record.name);
        continue;
      }
    } else {
      found = index.best(probe, stores.mergeThreshold, (r) => sameScope(r, record))?.record;
    }
    const target = found ? latest(found) : undefined;
    // Everything it stands for is already in the target: importing it again changes nothing.
    const known = target ? new Set(sourceHashesOf(target)) : undefined;
    if (target && (target.content_hash === record.content_hash || hashes.every((h) => known!.has(h)))) {
      report.unchanged.push(record.name);
      continue;
    }
    const written = target ? mergeRecords(target, sourcesOf(record, delta)) : record;
    planned.set(scopeKey(written), written);
    counterDeltas.push({ name: written.name, counters: { ...delta, name: written.name } });
    if (target) report.merged.push({ name: record.name, into: target.name });
    else report.added.push(record.name);
  }

  const newProposals = snapshot.proposals.filter((p) => !stores.store.proposal(p.id) && !stores.store.hasSourceHash(p.candidate.source_hash));
  report.proposalsAdded = newProposals.length;
  report.proposalsSkipped = snapshot.proposals.length - newProposals.length;
  if (options.dryRun) return report;

  await stores.skills.restoreLearnedSkills([...planned.values()]);
  stores.store.transaction(() => {
    stores.store.addCountersMany(counterDeltas.map(({ name, counters }) => ({ ...counters, name })));
    for (const proposal of newProposals) stores.store.insertProposal(proposal);
  });
  await stores.store.save();
  return report;
}

/** The import summary's sentences about other tenants' skills ('' when there were none). */
export function describeTenantMoves(report: Pick<ImportReport, 'movedToTenant' | 'otherTenant'>): string {
  const list = (names: readonly string[]) => `${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`;
  const moved = report.movedToTenant.length
    ? ` ${report.movedToTenant.length} tenant skill(s) of another tenant moved into this tenant: ${list(report.movedToTenant.map((m) => `${m.name} (from ${m.from})`))}.`
    : '';
  const left = report.otherTenant.length
    ? ` ${report.otherTenant.length} tenant skill(s) of another tenant not imported (set toolshed.scope.tenantId to import them into a tenant): ${list(report.otherTenant)}.`
    : '';
  return `${moved}${left}`;
}

function scopeKey(record: Pick<SkillRecord, 'name' | 'scope_mode' | 'scope_tenant_id' | 'scope_project_id'>): string {
  return `${record.scope_mode}\u0000${record.scope_tenant_id}\u0000${record.scope_project_id}\u0000${record.name}`;
}
