import * as vscode from 'vscode';
import * as os from 'node:os';
import { nativeSkillNames, nativeSkillRoots, packMayHoldNativeSkills, type NativeSkillSettings } from '../../core/skills/packs/nativeAgentSkills';
import type { AgentSkillLocation, ResolvedSkillPack } from '../../core/skills/packs/skillPackSources';
import type { SkillService } from '../../core/skills/skillService';
import { Disposable } from '../lifecycle';

const USE_AGENT_SKILLS = 'chat.useAgentSkills';
export const AGENT_SKILLS_LOCATIONS = 'chat.agentSkillsLocations';

/** The host's own agent-skill settings; `supported` is false where VS Code does not define them (before 1.139). */
function readNativeSkillSettings(): NativeSkillSettings {
  const chat = vscode.workspace.getConfiguration('chat');
  const supported = chat.inspect<boolean>('useAgentSkills')?.defaultValue !== undefined;
  const locations = chat.get<Record<string, unknown>>('agentSkillsLocations');
  return {
    supported,
    enabled: supported && chat.get<boolean>('useAgentSkills') === true,
    ...(locations && typeof locations === 'object' ? { locations } : {}),
  };
}

/**
 * The agent-skill folders Toolshed loads (with `toolshed.skills.includeAgentSkillFolders`): the
 * entries of `chat.agentSkillsLocations` that are on — VS Code merges its defaults with the user's
 * and the workspace's entries — whether or not `chat.useAgentSkills` offers them to agent mode;
 * undefined where the host has no such setting (the core's defaults then). An entry that only
 * workspace settings turn on counts as workspace-sourced, so Restricted Mode leaves it out.
 */
export function readAgentSkillLocations(): AgentSkillLocation[] | undefined {
  const inspected = vscode.workspace.getConfiguration('chat').inspect<Record<string, unknown>>('agentSkillsLocations');
  if (!inspected || inspected.defaultValue === undefined) return undefined;
  const userOn = { ...inspected.defaultValue, ...(inspected.globalValue ?? {}) };
  const effective = { ...userOn, ...(inspected.workspaceValue ?? {}), ...(inspected.workspaceFolderValue ?? {}) };
  return Object.entries(effective)
    .filter(([, on]) => on === true)
    .map(([location]) => ({ location, fromWorkspaceSettings: userOn[location] !== true }));
}

/**
 * Which loaded SKILL.md skills VS Code's own agent skills offer to agent mode, kept current with
 * the packs and the `chat.*` settings. Agent-mode skill tools leave these names out.
 */
export class NativeAgentSkills extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  /** Names per settings/folders/trust key; dropped whenever the packs change. */
  private cached: { key: string; names: ReadonlySet<string> } | undefined;

  constructor(
    private readonly skills: Pick<SkillService, 'packSkillFiles'>,
    packsChanged: vscode.Event<void>,
    /** The packs whose skills the store may hold (`SkillPackManager.storedPacks`). */
    private readonly packs: () => readonly ResolvedSkillPack[],
  ) {
    super();
    const invalidate = () => {
      this.cached = undefined;
      this.changed.fire();
    };
    // A pack change reaches the views through the skill change event already: here it only drops the cache.
    this._register(packsChanged(() => (this.cached = undefined)));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(USE_AGENT_SKILLS) || event.affectsConfiguration(AGENT_SKILLS_LOCATIONS)) invalidate();
      }),
    );
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(invalidate));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(invalidate));
  }

  /** Names of the pack skills VS Code itself offers in agent mode (empty when native skills are off or absent). */
  names(): ReadonlySet<string> {
    // The settings are read on every call (cheap), so an answer never lags a settings change.
    const settings = readNativeSkillSettings();
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const key = JSON.stringify([settings, folders, vscode.workspace.isTrusted]);
    if (this.cached?.key !== key) {
      const roots = nativeSkillRoots(settings, folders, os.homedir());
      // Only the skills of packs whose folder could hold one of the host's skill folders are read
      // (Restricted Mode hides workspace packs from every surface already): a library elsewhere
      // costs no reading of every stored skill at the first agent-mode call.
      const related = this.packs()
        .filter((pack) => (vscode.workspace.isTrusted || !pack.workspace) && packMayHoldNativeSkills(pack.root, roots))
        .map((pack) => pack.name);
      this.cached = { key, names: nativeSkillNames(related.length ? this.skills.packSkillFiles(related) : [], roots) };
    }
    return this.cached.names;
  }
}
