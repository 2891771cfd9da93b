import type { ScopeMode } from '../../config/settingsSchema';

/**
 * Skill identity (docs/contracts.md#skill-scopes: a name is unique within its scope):
 * a skill is (scope mode, tenant id, project id, name). Two tenants may each have a skill named
 * `deploy`; neither overwrites nor sees the other. Ids are '' when a scope does not use them
 * (global has neither; tenant has no project).
 */
export interface SkillScope {
  scope_mode: ScopeMode;
  scope_tenant_id: string;
  scope_project_id: string;
}

export interface SkillIdentity extends SkillScope {
  name: string;
}

/** The global scope (no tenant, no project). */
export const GLOBAL_SCOPE: SkillScope = { scope_mode: 'global', scope_tenant_id: '', scope_project_id: '' };

/** Normalises a scope: ids a mode does not use are dropped (as `toRecord` stores them). */
export function makeScope(mode: ScopeMode, tenantId?: string, projectId?: string): SkillScope {
  return {
    scope_mode: mode,
    scope_tenant_id: mode === 'global' ? '' : (tenantId ?? '').trim(),
    scope_project_id: mode === 'project' ? (projectId ?? '').trim() : '',
  };
}

/**
 * Why no request could ever see a skill stored in this scope, or undefined when it is fine:
 * a project skill needs a project id, a tenant skill a tenant id (the filters never match '').
 */
export function unreachableScope(scope: SkillScope): string | undefined {
  if (scope.scope_mode === 'project' && !scope.scope_project_id) {
    return 'scope "project" needs a project id (project_id); without one no request could ever see the skill. Pass the project id of the workspace, or use scope "tenant" or "global".';
  }
  if (scope.scope_mode === 'tenant' && !scope.scope_tenant_id) {
    return 'scope "tenant" needs a tenant id (tenant_id); without one no request could ever see the skill. Pass the tenant id, or use scope "global".';
  }
  return undefined;
}

/** Map key of an identity ('\u0000' cannot occur in names or ids read from files). */
export function identityKey(identity: SkillIdentity): string {
  return `${identity.scope_mode}\u0000${identity.scope_tenant_id}\u0000${identity.scope_project_id}\u0000${identity.name}`;
}

export function sameScope(a: SkillScope, b: SkillScope): boolean {
  return a.scope_mode === b.scope_mode && a.scope_tenant_id === b.scope_tenant_id && a.scope_project_id === b.scope_project_id;
}

/**
 * How specific a scope is. When a request sees several skills of one name (say a global pack
 * skill and the project's own), the most specific one answers to that name and hides the others.
 */
export function scopeRank(scope: SkillScope): number {
  if (scope.scope_mode === 'project') return scope.scope_tenant_id ? 4 : 3;
  return scope.scope_mode === 'tenant' ? 2 : 1;
}

/** The same rank as SQL over a table alias (kept in step with `scopeRank`). */
export function scopeRankSql(alias: string): string {
  return `(CASE ${alias}.scope_mode WHEN 'project' THEN (CASE WHEN ${alias}.scope_tenant_id = '' THEN 3 ELSE 4 END) WHEN 'tenant' THEN 2 ELSE 1 END)`;
}

/** `project p1 (tenant t1)` — for messages. */
export function describeScope(scope: SkillScope): string {
  if (scope.scope_mode === 'global') return 'global';
  if (scope.scope_mode === 'tenant') return `tenant ${scope.scope_tenant_id}`;
  return `project ${scope.scope_project_id}${scope.scope_tenant_id ? ` (tenant ${scope.scope_tenant_id})` : ''}`;
}
