import type { SkillRecord } from '../../skillSchema';
import { skillId } from '../skillRecords';
import { makeScope } from '../skillScope';

/**
 * The one tenant rule for writing learned skills where every window of a tenant loads them
 * (importing a snapshot, seeding the shared store from a window's own store): a tenant skill of
 * another tenant is moved into this window's tenant, or left out when the window has none —
 * never written where that other tenant's windows would load it.
 */

/**
 * A record of scope `mode` (and the base of its lineage, when it has one) moved into another
 * project (mode 'project') or tenant (mode 'tenant'); records of other scopes are unchanged.
 */
export function moveRecord(record: SkillRecord, mode: 'project' | 'tenant', id: string): SkillRecord {
  if (record.scope_mode !== mode || (mode === 'project' ? record.scope_project_id : record.scope_tenant_id) === id) return record;
  const scope = mode === 'project' ? makeScope('project', record.scope_tenant_id || undefined, id) : makeScope('tenant', id);
  const moved: SkillRecord = { ...record, ...scope, id: skillId('learned', record.name, scope) };
  const lineage = record.extra.lineage as { base?: unknown } | undefined;
  if (!lineage || typeof lineage !== 'object' || !lineage.base || typeof lineage.base !== 'object') return moved;
  return { ...moved, extra: { ...moved.extra, lineage: { ...lineage, base: moveRecord(lineage.base as SkillRecord, mode, id) } } };
}

/** Where `record` goes in a window of `tenantId` ('' for none): itself, moved (with the tenant it came from), or left out. */
export function underTenantRule(record: SkillRecord, tenantId: string): { record: SkillRecord; movedFrom?: string } | { leftOut: true } {
  if (record.scope_mode !== 'tenant' || record.scope_tenant_id === tenantId) return { record };
  if (!tenantId) return { leftOut: true };
  return { record: moveRecord(record, 'tenant', tenantId), movedFrom: record.scope_tenant_id };
}
