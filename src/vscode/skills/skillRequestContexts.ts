import * as vscode from 'vscode';
import type { NameFinder } from '../../core/search/nameFinder';
import { runToolGate } from '../../core/skills/render/toolReferenceGate';
import type { SkillRequestContext } from '../../core/skills/skillService';
import type { ToolRun } from '../../core/tools/toolRun';
import { workspaceProjectId } from './skillPackManager';

/** What a skill request context is built from (the services themselves), read when a request starts. */
export interface SkillContextSources {
  /** The host's tool list (`LmToolCatalog`): every name it lists, skill scripts included, gates tool names written as plain words. */
  hostTools: { toolNames(): NameFinder };
  /** The tool catalog: what a request without a run may activate. */
  tools: { registryMap(): { has(name: string): boolean } };
  /** `toolshed.scope.tenantId` ('' or absent: none). */
  settings: { readonly current: { readonly scope: { readonly tenantId?: string } } };
  /** Pinned in the Skill Directory. */
  pinned: { names(): readonly string[] };
  /** Retired in this workspace (the Ledger view). */
  ledger: { retiredSkillNames(): ReadonlySet<string> };
}

/**
 * The skill request context for the current state: project scope (the workspace), tenant,
 * workspace trust (no workspace-pack skills when untrusted), pins, retired skills, and the tool
 * gate of `run` (or, without one, of the catalog and the policy), so no denied tool is named.
 */
export function skillRequestContexts(sources: SkillContextSources): (run?: ToolRun, extraPinned?: readonly string[]) => SkillRequestContext {
  return (run, extraPinned = []) => {
    // Lookups only: with tens of thousands of MCP tools, a request must not copy the tool list.
    const knownToolNames = sources.hostTools.toolNames();
    const projectId = workspaceProjectId();
    const tenantId = sources.settings.current.scope.tenantId;
    return {
      scope: { ...(projectId ? { projectId } : {}), ...(tenantId ? { tenantId } : {}) },
      toolGate: runToolGate(run, sources.tools.registryMap(), knownToolNames),
      knownToolNames,
      includeWorkspacePacks: vscode.workspace.isTrusted,
      pinnedNames: [...new Set([...sources.pinned.names(), ...extraPinned])],
      retiredNames: sources.ledger.retiredSkillNames(),
    };
  };
}
