import * as path from 'node:path';
import type { ScopeMode, SkillPackFormat, SkillsConfig } from '../../config/settingsSchema';

/**
 * Where skill packs come from: the packs shipped in `skill-packs/`, packs named in
 * settings, and the agent-skill folders VS Code and Claude users already have. Every resolved
 * pack says whether it is workspace-sourced: in an untrusted workspace the VS Code layer passes
 * `includeWorkspacePacks: false` and those skills are neither injected nor returned.
 */

export type PackSource = 'builtin' | 'settings' | 'workspace-agent-folder' | 'home-agent-folder';

export interface ResolvedSkillPack {
  name: string;
  /** Absolute folder. */
  root: string;
  format?: SkillPackFormat;
  scopeMode: ScopeMode;
  tenantId?: string;
  projectId?: string;
  enabled: boolean;
  updateExistingPackSkills: boolean;
  pinnedSkillNames: string[];
  source: PackSource;
  /** True when the pack's files live in (or were named by) the workspace. */
  workspace: boolean;
  /** Default folders may be absent without that being a problem. */
  optional: boolean;
}

interface WorkspaceFolderInfo {
  name: string;
  /** Absolute path. */
  path: string;
  /** Stable project identity for `project` scope (default: the path). */
  projectId?: string;
}

export interface ResolvePacksInput {
  config: SkillsConfig;
  /** The extension's install folder (holds `skill-packs/`). */
  extensionPath?: string;
  /** Names of the built-in packs (sub-folders of `skill-packs/`); the caller lists them. */
  builtInPackNames?: readonly string[];
  workspaceFolders: readonly WorkspaceFolderInfo[];
  homeDir?: string;
  tenantId?: string;
  /** True when `config.packs` came from workspace settings (then those packs count as workspace-sourced). */
  packsFromWorkspaceSettings?: boolean;
  /**
   * The agent-skill folders to read (`toolshed.skills.includeAgentSkillFolders`): VS Code's
   * `chat.agentSkillsLocations` entries that are on, where the host has that setting; otherwise
   * its defaults. An entry only workspace settings name counts as workspace-sourced.
   */
  agentSkillLocations?: readonly AgentSkillLocation[];
}

export interface AgentSkillLocation {
  /** As in `chat.agentSkillsLocations`: relative to each workspace folder, or `~/…` from home. */
  location: string;
  fromWorkspaceSettings: boolean;
}

export const WORKSPACE_AGENT_FOLDERS = ['.github/skills', '.claude/skills', '.agents/skills'] as const;
/** Where the host has no `chat.agentSkillsLocations` (before VS Code 1.139): the folders of its defaults, in Toolshed's load order. */
const DEFAULT_AGENT_SKILL_LOCATIONS: readonly AgentSkillLocation[] = [
  ...WORKSPACE_AGENT_FOLDERS,
  '~/.copilot/skills',
  '~/.claude/skills',
  '~/.agents/skills',
].map((location) => ({ location, fromWorkspaceSettings: false }));
export const BUILT_IN_PACKS_FOLDER = 'skill-packs';

/**
 * One folder as a pack with the defaults of a `toolshed.skills.packs` entry (global scope,
 * enabled, updates its skills, nothing pinned, not workspace-sourced, must exist); `extra`
 * overrides any of them.
 */
export function folderPack(name: string, root: string, extra: Partial<ResolvedSkillPack> = {}): ResolvedSkillPack {
  return {
    name,
    root,
    scopeMode: 'global',
    enabled: true,
    updateExistingPackSkills: true,
    pinnedSkillNames: [],
    source: 'settings',
    workspace: false,
    optional: false,
    ...extra,
  };
}

/** The resolved pack list, in load order (first definition of a skill name wins). */
export function resolveSkillPacks(input: ResolvePacksInput): ResolvedSkillPack[] {
  const { config } = input;
  const packs: ResolvedSkillPack[] = [];
  const firstFolder = input.workspaceFolders[0];

  if (config.includeBuiltInPacks && input.extensionPath) {
    for (const name of input.builtInPackNames ?? []) {
      packs.push(folderPack(name, path.join(input.extensionPath, BUILT_IN_PACKS_FOLDER, name), { source: 'builtin' }));
    }
  }

  for (const pack of config.packs) {
    const base = firstFolder?.path ?? input.homeDir ?? process.cwd();
    const root = path.resolve(base, expandHome(pack.path, input.homeDir));
    const inWorkspace = input.workspaceFolders.some((folder) => isInside(root, folder.path));
    packs.push({
      name: pack.name,
      root,
      format: pack.format,
      scopeMode: pack.scopeMode,
      tenantId: input.tenantId,
      projectId: firstFolder ? (firstFolder.projectId ?? firstFolder.path) : undefined,
      enabled: pack.enabled,
      updateExistingPackSkills: pack.updateExistingPackSkills,
      pinnedSkillNames: pack.pinnedSkillNames,
      source: 'settings',
      workspace: inWorkspace || input.packsFromWorkspaceSettings === true,
      optional: false,
    });
  }

  if (config.includeAgentSkillFolders) {
    const locations = (input.agentSkillLocations ?? DEFAULT_AGENT_SKILL_LOCATIONS).filter(({ location }) => readableLocation(location));
    const isHome = (location: string) => location === '~' || location.startsWith('~/');
    for (const folder of input.workspaceFolders) {
      for (const { location } of locations.filter((entry) => !isHome(entry.location))) {
        packs.push(
          folderPack(`ws-${slug(folder.name)}-${locationSlug(location)}`, path.join(folder.path, location), {
            format: undefined,
            scopeMode: 'project',
            tenantId: input.tenantId,
            projectId: folder.projectId ?? folder.path,
            source: 'workspace-agent-folder',
            workspace: true,
            optional: true,
          }),
        );
      }
    }
    if (input.homeDir) {
      for (const { location, fromWorkspaceSettings } of locations.filter((entry) => isHome(entry.location))) {
        const rel = location.slice(2);
        packs.push(
          folderPack(`home-${locationSlug(rel)}`, path.join(input.homeDir, rel), {
            source: 'home-agent-folder',
            workspace: fromWorkspaceSettings,
            optional: true,
          }),
        );
      }
    }
  }
  return dedupeNames(packs);
}

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function expandHome(p: string, home: string | undefined): string {
  return home && (p === '~' || p.startsWith('~/')) ? path.join(home, p.slice(1)) : p;
}

/**
 * VS Code reads relative paths and `~/` only (no absolute paths, no backslashes); so does
 * Toolshed, never `..`, and never the whole workspace or home folder (`.`, `~`): Toolshed scans a
 * location for every skill format, not just `<skill>/SKILL.md`.
 */
function readableLocation(location: string): boolean {
  if (!location || path.isAbsolute(location) || location.includes('\\')) return false;
  const parts = (location.startsWith('~/') ? location.slice(2) : location).split('/').filter((part) => part && part !== '.');
  return parts.length > 0 && !parts.includes('..') && !parts.includes('~');
}

/** `.github/skills` → `github` (the names packs always had); any other location in full. */
function locationSlug(location: string): string {
  const [first = '', ...rest] = location.split('/').filter(Boolean);
  return rest.join('/') === 'skills' ? slug(first) : slug(location);
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'folder'
  );
}

/** Two packs with one name would mix their skills: suffix later ones. */
function dedupeNames(packs: ResolvedSkillPack[]): ResolvedSkillPack[] {
  const seen = new Map<string, number>();
  return packs.map((pack) => {
    const n = seen.get(pack.name) ?? 0;
    seen.set(pack.name, n + 1);
    return n === 0 ? pack : { ...pack, name: `${pack.name}-${n + 1}` };
  });
}
