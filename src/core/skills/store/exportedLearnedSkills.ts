import type { SkillRecord } from '../skillSchema';
import type { SkillIdentity } from './skillScope';

/**
 * Learned skills exported as a skill pack ("Export as Skill Pack", RFC Part 7). The exported
 * SKILL.md records, under its agentskills.io `metadata:` map, which learned skill it came from.
 * Once the pack loader has loaded it, that learned skill is *retired*: kept (lineage, counters,
 * undo) but inactive, with a pointer to the pack skill, so search and pre-flight show the skill
 * once — as the pack skill. When the pack skill goes away (its folder deleted or the pack no
 * longer loaded), the learned skill comes back as it was.
 */

/** The `metadata:` keys an exported SKILL.md carries (all values are strings, as agentskills.io requires). */
export const EXPORT_METADATA = {
  learnedId: 'learned_id',
  learnedName: 'learned_name',
  sourceHashes: 'source_hashes',
  mergedFrom: 'merged_from',
  originRef: 'origin_ref',
  helpful: 'helpful',
  harmful: 'harmful',
  useCount: 'use_count',
  exportedAt: 'exported_at',
} as const;

/** Where a retired learned skill points: the pack skill it was exported as (in `extra.exported_to`). */
export interface ExportedTo extends SkillIdentity {
  source_file: string;
  pack_name: string;
}

const EXPORTED_TO_KEY = 'exported_to';

/** What a loaded pack skill says about the learned skill it was exported from, if anything. */
export function exportedFrom(pack: SkillRecord): { learnedId: string; sourceHashes: string[] } | undefined {
  const metadata = pack.meta.metadata;
  if (!metadata || typeof metadata !== 'object') return undefined;
  const learnedId = (metadata as Record<string, unknown>)[EXPORT_METADATA.learnedId];
  if (typeof learnedId !== 'string' || !learnedId.trim()) return undefined;
  const hashes = (metadata as Record<string, unknown>)[EXPORT_METADATA.sourceHashes];
  return { learnedId: learnedId.trim(), sourceHashes: typeof hashes === 'string' ? hashes.split(/\s+/).filter(Boolean) : [] };
}

/** The pack skill a learned skill was retired in favour of, or undefined when it is not retired. */
export function exportedTo(learned: SkillRecord): ExportedTo | undefined {
  const value = learned.extra[EXPORTED_TO_KEY] as Partial<ExportedTo> | undefined;
  return value && typeof value === 'object' && typeof value.name === 'string' ? value as ExportedTo : undefined;
}

/** Human-readable status reason of a retired learned skill (shown in the Skill Directory). */
export function retiredReason(to: ExportedTo): string {
  return `exported as pack skill "${to.name}" (${to.source_file || to.pack_name}); this learned copy is kept for lineage and undo — delete that folder to bring it back`;
}

/**
 * Which learned records to retire (a loaded, active pack skill claims them) and which to bring
 * back (retired, but no pack skill claims them any more). A pack skill claims a learned record
 * by its id, or — when the id changed (an import into another project) — by its source hash.
 * Pure: returns the records to write, each complete.
 */
export function planRetirement(learned: readonly SkillRecord[], packs: readonly SkillRecord[]): SkillRecord[] {
  const claims = packs.filter((p) => p.origin === 'pack' && p.status === 'active')
    .map((pack) => ({ pack, from: exportedFrom(pack) }))
    .filter((c): c is { pack: SkillRecord; from: NonNullable<ReturnType<typeof exportedFrom>> } => c.from !== undefined);
  const claimOf = (record: SkillRecord) => {
    const hash = typeof record.extra.source_hash === 'string' ? record.extra.source_hash : '';
    return claims.find((c) => c.from.learnedId === record.id) ?? (hash ? claims.find((c) => c.from.sourceHashes.includes(hash)) : undefined);
  };
  const changed: SkillRecord[] = [];
  for (const record of learned) {
    if (record.origin !== 'learned') continue;
    const claim = claimOf(record);
    const current = exportedTo(record);
    if (claim) {
      const to: ExportedTo = {
        name: claim.pack.name, scope_mode: claim.pack.scope_mode, scope_tenant_id: claim.pack.scope_tenant_id,
        scope_project_id: claim.pack.scope_project_id, source_file: claim.pack.source_file, pack_name: claim.pack.pack_name,
      };
      if (record.status === 'inactive' && current && JSON.stringify(current) === JSON.stringify(to)) continue;
      changed.push({ ...record, status: 'inactive', status_reason: retiredReason(to), extra: { ...record.extra, [EXPORTED_TO_KEY]: to } });
    } else if (current) {
      const { [EXPORTED_TO_KEY]: _dropped, ...extra } = record.extra;
      changed.push({ ...record, status: 'active', status_reason: '', extra });
    }
  }
  return changed;
}
