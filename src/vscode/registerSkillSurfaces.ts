import type * as vscode from 'vscode';
import type { Logger } from '../core/platform/ports';
import type { ToolshedSettings } from '../core/config/settingsSchema';
import type { SkillRequestContext, SkillService } from '../core/skills/skillService';
import type { ToolSearchService } from '../core/tools/toolSearchService';
import { registerAuthoring } from './authoring/registerAuthoring';
import type { SkillDiagnostics } from './authoring/skillDiagnostics';
import { offThreadSkillDocumentValidator } from './authoring/offThreadValidator';
import { offThreadSkillParse } from '../core/skills/packs/document/offThreadParser';
import type { OffThreadRunner } from '../core/platform/offThreadRunner';
import { registerPalette } from './palette/registerPalette';
import { skillSearchProvider, toolSearchProvider } from './palette/serviceSearchProviders';
import type { ActivityRegistry } from './state/activityRegistry';
import type { PinnedSkills } from './state/pinnedSkills';
import { registerViews } from './views/registerViews';
import type { TreeViewSlots } from './servicesOpening';
import type { SkillChanges } from './skillChanges';
import type { DirectoryGroup } from './views/directoryGroup';
import { SkillServiceDirectorySource, type RetiredSkillNames, type SkillPackLoaderPort } from './views/skillServiceDirectorySource';

/** What the sidebar, authoring and palette need from the shared services (`ToolshedServices` fits). */
export interface SkillSurfacesServices {
  readonly logger: Logger;
  readonly activity: ActivityRegistry;
  readonly pinned: PinnedSkills;
  readonly tools: ToolSearchService;
  readonly skills: SkillService;
  /** The skill list by pack, read once per change of it. */
  readonly skillTree: Pick<SkillService, 'listPacks'>;
  /** Owns pack loading and file watching (`SkillPackManager`). */
  readonly skillPacks: SkillPackLoaderPort;
  /** The one change event for what the skill views show (the Skill Directory follows it). */
  readonly skillChanges: Pick<SkillChanges, 'onDidChange'>;
  /** Scope, trust and tool gate for user-facing skill queries (the palette's search). */
  skillContext(): SkillRequestContext;
  /** Re-reads `vscode.lm.tools` into the tool catalog (synced lazily, before use). */
  syncToolCatalog(): number;
  /** Parses large skill documents off the extension host's thread (the editor's diagnostics use it). */
  readonly parserThread: OffThreadRunner;
  /** Which skills are retired in this workspace (the ledger); the Skill Directory shows them as inactive. */
  readonly ledger?: RetiredSkillNames;
  /** The typed settings (the Skill Directory's grouping follows `toolshed.skills.directoryGroupBy`). */
  readonly settings?: { readonly current: ToolshedSettings; readonly onDidChange: vscode.Event<unknown> };
}

/** Builds the view ports over the core services and registers views, authoring and palette. */
export function registerSkillSurfaces(
  context: vscode.ExtensionContext,
  services: SkillSurfacesServices,
  views: TreeViewSlots,
  directoryGroups: readonly DirectoryGroup[] = [],
): { directory: SkillServiceDirectorySource; diagnostics: SkillDiagnostics } {
  const directory = new SkillServiceDirectorySource(
    services.skills,
    services.skillPacks,
    services.skillChanges.onDidChange,
    services.ledger,
    services.skillTree,
  );
  context.subscriptions.push(directory);
  const toolSearch = toolSearchProvider(services.tools, () => services.syncToolCatalog());
  const settings = services.settings;
  const directoryGrouping = settings
    ? { current: () => settings.current.skills.directoryGroupBy, onDidChange: (listener: () => void) => settings.onDidChange(listener) }
    : undefined;
  registerViews(context, {
    views,
    skills: directory,
    pinned: services.pinned,
    activity: services.activity,
    tools: toolSearch,
    directoryGroups,
    directoryGrouping,
  });
  // The pack manager watches pack folders and re-indexes changed files itself.
  const { diagnostics } = registerAuthoring(context, {
    skills: directory,
    validateDocument: offThreadSkillDocumentValidator(offThreadSkillParse(services.parserThread)),
    logger: services.logger,
    fileSync: 'observe',
  });
  const requestContext = (): SkillRequestContext => services.skillContext();
  registerPalette(context, {
    skills: directory,
    skillSearch: skillSearchProvider(services.skills, directory, requestContext),
    toolSearch,
    logger: services.logger,
  });
  return { directory, diagnostics };
}
