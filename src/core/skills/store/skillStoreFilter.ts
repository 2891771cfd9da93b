import type { SqlDatabase } from '../../sql/sqlDatabase';
import type { EntryFilter } from './skillSearchIndex';
import { scopeRankSql } from './skillScope';

/** Who is asking: scope + whether workspace-sourced packs may be used (false when untrusted). */
export type StoreFilter = EntryFilter;

/** The scope/trust/status/option conditions for one table alias (same rules as `entryPredicate`). */
function conditions(alias: string, filter: StoreFilter, params: Record<string, string | number>): string[] {
  const parts = [
    `(${alias}.scope_mode = 'global'
      OR (${alias}.scope_mode = 'tenant' AND ${alias}.scope_tenant_id = :tenant)
      OR (${alias}.scope_mode = 'project' AND ${alias}.scope_project_id = :project AND (${alias}.scope_tenant_id = '' OR ${alias}.scope_tenant_id = :tenant)))`,
  ];
  if (!filter.includeWorkspacePacks) parts.push(`${alias}.workspace = 0`);
  if (filter.activeOnly !== false) parts.push(`${alias}.status = 'active'`);
  if (filter.modelInvocableOnly) parts.push(`${alias}.model_invocable = 1`);
  if (filter.taskType) {
    parts.push(`${alias}.task_type = :taskType`);
    params[':taskType'] = filter.taskType;
  }
  if (filter.origin) {
    parts.push(`${alias}.origin = :origin`);
    params[':origin'] = filter.origin;
  }
  if (filter.scopeMode) {
    parts.push(`${alias}.scope_mode = :scopeMode`);
    params[':scopeMode'] = filter.scopeMode;
  }
  if (filter.excludePackNames?.size) {
    const keys = [...filter.excludePackNames].map((name, i) => {
      params[`:excluded${i}`] = name;
      return `:excluded${i}`;
    });
    parts.push(`NOT (${alias}.origin = 'pack' AND ${alias}.name IN (${keys.join(', ')}))`);
  }
  if (filter.excludeNames?.size) {
    const keys = [...filter.excludeNames].map((name, i) => {
      params[`:retired${i}`] = name;
      return `:retired${i}`;
    });
    parts.push(`${alias}.name NOT IN (${keys.join(', ')})`);
  }
  return parts;
}

/**
 * WHERE clause (alias `s`) enforcing scope, trust, status and optional filters, and, like the
 * mirror's `visible`, hiding a skill when a more specific scope's skill of the same name passes
 * the same filter (a request sees one skill per name).
 */
export function filterSql(filter: StoreFilter): { sql: string; params: Record<string, string | number> } {
  // '\u0000' never equals a stored id, so an absent tenant/project matches nothing.
  const params: Record<string, string | number> = {
    ':tenant': filter.tenantId || '\u0000',
    ':project': filter.projectId || '\u0000',
  };
  const own = conditions('s', filter, params);
  const other = conditions('o', filter, params);
  const shadowed = `NOT EXISTS (SELECT 1 FROM skills o WHERE o.name = s.name AND o.doc_id <> s.doc_id
    AND ${scopeRankSql('o')} > ${scopeRankSql('s')} AND ${other.join(' AND ')})`;
  return { sql: [...own, shadowed].join(' AND '), params };
}

/** Skills inside the filter that carry a `cluster` (name + raw value) — candidates for cluster expansion. */
export function clusteredIn(db: SqlDatabase, filter: StoreFilter): Array<{ name: string; cluster: unknown }> {
  const where = filterSql(filter);
  return db.all<{ name: string; cluster: string }>(
    `SELECT s.name AS name, json_extract(s.meta, '$.cluster') AS cluster FROM skills s
      WHERE ${where.sql} AND json_valid(s.meta) AND json_type(s.meta, '$.cluster') = 'text' ORDER BY s.name`,
    where.params,
  );
}
