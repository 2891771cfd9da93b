import type { SqlDatabase } from '../../../sql/sqlDatabase';
import type { SkillRecord } from '../../skillSchema';
import type { SkillIdentity } from '../skillScope';

/**
 * Learned skills exported as a skill pack ("Export as Skill Pack"). The exported
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
  /** The skill's cluster: under `metadata:` so the file stays agentskills.io-valid. */
  cluster: 'cluster',
} as const;

/** Where a retired learned skill points: the pack skill it was exported as (in `extra.exported_to`). */
export interface ExportedTo extends SkillIdentity {
  source_file: string;
  pack_name: string;
}

const EXPORTED_TO_KEY = 'exported_to';

/** A loaded, active pack skill that names the learned skill it was exported from (see SkillStore.exportClaims). */
export interface ExportClaim extends ExportedTo {
  learned_id: string;
  /** Space-separated source hashes (metadata `source_hashes`), '' when absent. */
  source_hashes: string;
}

/** The pack skill a learned skill was retired in favour of, or undefined when it is not retired. */
export function exportedTo(learned: SkillRecord): ExportedTo | undefined {
  const value = learned.extra[EXPORTED_TO_KEY] as Partial<ExportedTo> | undefined;
  return value && typeof value === 'object' && typeof value.name === 'string' ? (value as ExportedTo) : undefined;
}

/** Human-readable status reason of a retired learned skill (shown in the Skill Directory). */
function retiredReason(to: ExportedTo): string {
  return `exported as pack skill "${to.name}" (${to.source_file || to.pack_name}); this learned copy is kept for lineage and undo — delete that folder to bring it back`;
}

/**
 * Which learned records to retire (a loaded, active pack skill claims them) and which to bring
 * back (retired, but no pack skill claims them any more). A pack skill claims a learned record
 * by its id, or — when the id changed (an import into another project) — by its source hash.
 * Pure: returns the records to write, each complete.
 */
export function planRetirement(learned: readonly SkillRecord[], claims: readonly ExportClaim[]): SkillRecord[] {
  // Maps, not scans: this runs after every pack file reload, over every learned skill.
  const byId = new Map<string, ExportClaim>();
  const byHash = new Map<string, ExportClaim>();
  for (const claim of claims) {
    if (!byId.has(claim.learned_id)) byId.set(claim.learned_id, claim);
    for (const hash of claim.source_hashes.split(/\s+/)) if (hash && !byHash.has(hash)) byHash.set(hash, claim);
  }
  const changed: SkillRecord[] = [];
  for (const record of learned) {
    if (record.origin !== 'learned') continue;
    const hash = typeof record.extra.source_hash === 'string' ? record.extra.source_hash : '';
    const claim = byId.get(record.id) ?? (hash ? byHash.get(hash) : undefined);
    const current = exportedTo(record);
    if (claim) {
      const to: ExportedTo = {
        name: claim.name,
        scope_mode: claim.scope_mode,
        scope_tenant_id: claim.scope_tenant_id,
        scope_project_id: claim.scope_project_id,
        source_file: claim.source_file,
        pack_name: claim.pack_name,
      };
      if (record.status === 'inactive' && current && sameTarget(current, to)) continue;
      changed.push({ ...record, status: 'inactive', status_reason: retiredReason(to), extra: { ...record.extra, [EXPORTED_TO_KEY]: to } });
    } else if (current) {
      const { [EXPORTED_TO_KEY]: _dropped, ...extra } = record.extra;
      changed.push({ ...record, status: 'active', status_reason: '', extra });
    }
  }
  return changed;
}

function sameTarget(a: ExportedTo, b: ExportedTo): boolean {
  return (
    a.name === b.name &&
    a.scope_mode === b.scope_mode &&
    a.scope_tenant_id === b.scope_tenant_id &&
    a.scope_project_id === b.scope_project_id &&
    a.source_file === b.source_file &&
    a.pack_name === b.pack_name
  );
}

/** Whether a file defines a pack skill exported from a learned skill (indexed by source file: cheap). */
export function hasExportClaimIn(db: SqlDatabase, file: string): boolean {
  return (
    db.get(
      `SELECT 1 AS x FROM skills WHERE source_file = ? AND origin = 'pack' AND json_valid(meta) AND json_type(meta, '$.metadata.learned_id') = 'text' LIMIT 1`,
      [file],
    ) !== undefined
  );
}

/** Active pack skills exported from a learned skill (their SKILL.md `metadata` names a `learned_id`); only the columns retirement needs. */
export function exportClaimsIn(db: SqlDatabase): ExportClaim[] {
  return db.all<ExportClaim & Record<string, string>>(`SELECT name, scope_mode, scope_tenant_id, scope_project_id, source_file, pack_name,
      json_extract(meta, '$.metadata.learned_id') AS learned_id,
      CASE json_type(meta, '$.metadata.source_hashes') WHEN 'text' THEN json_extract(meta, '$.metadata.source_hashes') ELSE '' END AS source_hashes
    FROM skills WHERE origin = 'pack' AND status = 'active' AND json_valid(meta) AND json_type(meta, '$.metadata.learned_id') = 'text'`);
}
