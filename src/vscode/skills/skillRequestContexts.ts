import * as vscode from 'vscode';
import type { NameFinder } from '../../core/search/nameFinder';
import { runToolGate } from '../../core/skills/render/toolReferenceGate';
import type { SkillRequestContext } from '../../core/skills/skillService';
import type { ToolRun } from '../../core/tools/toolRun';
import { workspaceProjectId } from './skillPackManager';

/** What a skill request context is built from, read when a request starts. */
export interface SkillContextSources {
  /** Every tool name the host lists (skill scripts included): gates tool names written as plain words. */
  knownToolNames(): NameFinder;
  /** The tool catalog: what a request without a run may activate. */
  catalog(): { has(name: string): boolean };
  /** `toolshed.scope.tenantId` ('' or absent: none). */
  tenantId(): string | undefined;
  /** Pinned in the Skill Directory. */
  pinnedNames(): readonly string[];
  /** Retired in this workspace (the Ledger view). */
  retiredNames(): ReadonlySet<string>;
}

/**
 * The skill request context for the current state: project scope (the workspace), tenant,
 * workspace trust (no workspace-pack skills when untrusted), pins, retired skills, and the tool
 * gate of `run` (or, without one, of the catalog and the policy), so no denied tool is named.
 */
export function skillRequestContexts(sources: SkillContextSources): (run?: ToolRun, extraPinned?: readonly string[]) => SkillRequestContext {
  return (run, extraPinned = []) => {
    // Lookups only: with tens of thousands of MCP tools, a request must not copy the tool list.
    const knownToolNames = sources.knownToolNames();
    const projectId = workspaceProjectId();
    const tenantId = sources.tenantId();
    return {
      scope: { ...(projectId ? { projectId } : {}), ...(tenantId ? { tenantId } : {}) },
      toolGate: runToolGate(run, sources.catalog(), knownToolNames),
      knownToolNames,
      includeWorkspacePacks: vscode.workspace.isTrusted,
      pinnedNames: [...new Set([...sources.pinnedNames(), ...extraPinned])],
      retiredNames: sources.retiredNames(),
    };
  };
}
