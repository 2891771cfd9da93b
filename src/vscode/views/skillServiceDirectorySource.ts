import * as vscode from 'vscode';
import { clusterLabel } from '../../core/skills/skillClusters';
import { describeLineage, lineageOf } from '../../core/learning/merge/lineage';
import type { LoadSummary } from '../../core/skills/packs/skillPackLoader';
import type { SkillService, SkillTreePack } from '../../core/skills/skillService';
import { Disposable } from '../lifecycle';
import type { SkillChange } from '../skillChanges';
import { restrictedModeLine } from '../../core/trust/restrictedMode';
import { unusedWorkspaceSkills } from '../skills/unusedWorkspaceSkills';
import type { CancellationLike, PackStatuses, PackView, ReloadProgress, ReloadSummary, SkillDirectorySource, SkillView } from './skillDirectorySource';

/**
 * What this source needs from whoever owns pack loading and file watching (`SkillPackManager`
 * satisfies it structurally).
 */
export interface SkillPackLoaderPort {
  /** The latest load (the one started at activation, until another starts). */
  readonly ready?: Promise<unknown>;
  reload(progress?: vscode.Progress<{ message?: string; increment?: number }>, token?: vscode.CancellationToken): Promise<LoadSummary | undefined>;
  reloadFile(file: string): Promise<void>;
  removeFile(file: string): Promise<void>;
}

const PACK_KINDS: Readonly<Record<SkillTreePack['source'], PackView['kind']>> = {
  builtin: 'builtIn',
  settings: 'configured',
  'workspace-agent-folder': 'workspace',
  'home-agent-folder': 'user',
  learned: 'learned',
};

/**
 * `SkillDirectorySource` over the core `SkillService` and the pack loader: the view-shaped
 * snapshot (listPacks + inspect per skill) is computed once per change of the skill list and
 * cached. It follows the one skill change event and passes every change on to the view once.
 */
/** The part of the workspace ledger the directory reads: which skills are retired, and when that changes. */
export interface RetiredSkillNames {
  retiredSkillNames(): ReadonlySet<string>;
  readonly onDidChangeRetired: vscode.Event<void>;
}

export class SkillServiceDirectorySource extends Disposable implements SkillDirectorySource {
  private snapshot: PackView[] | undefined;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly service: SkillService,
    private readonly loader: SkillPackLoaderPort,
    skillChanges: vscode.Event<SkillChange>,
    /** Skills retired in this workspace (the ledger's); they show as inactive. */
    private readonly retired?: RetiredSkillNames,
    /** Where the skill list is read (the services' `skillTree`, read once per change); the service by default. */
    private readonly tree: Pick<SkillService, 'listPacks'> = service,
  ) {
    super();
    this._register(
      skillChanges((change) => {
        if (change.skills) this.snapshot = undefined;
        this.changed.fire();
      }),
    );
    if (retired)
      this._register(
        retired.onDidChangeRetired(() => {
          this.snapshot = undefined;
          this.changed.fire();
        }),
      );
  }

  packs(): readonly PackView[] {
    this.snapshot ??= this.build();
    return this.snapshot;
  }

  firstLoad(): Promise<unknown> | undefined {
    return this.loader.ready;
  }

  /**
   * The statuses of `packs()` from the service's in-memory index: no stored skill is read until the
   * tree is shown (the header counts them after every load and file change).
   */
  statuses(): readonly PackStatuses[] {
    if (this.snapshot) return this.snapshot;
    const retiredNames = this.retired?.retiredSkillNames();
    const trusted = vscode.workspace.isTrusted;
    return this.service
      .packStatuses()
      .filter((pack) => trusted || !pack.workspace)
      .map((pack) => ({
        skills: pack.skills.map((item) => ({ status: isRetired(item, retiredNames) ? 'inactive' : item.status })),
      }));
  }

  /** The packs the sidebar shows: in Restricted Mode workspace packs are hidden, as from every model path. */
  private visiblePacks() {
    const trusted = vscode.workspace.isTrusted;
    return this.tree.listPacks().filter((pack) => trusted || !pack.workspace);
  }

  async restrictedMode(): Promise<string | undefined> {
    const unused = await unusedWorkspaceSkills();
    return unused && restrictedModeLine(unused);
  }

  private build(): PackView[] {
    const { service } = this;
    const retiredNames = this.retired?.retiredSkillNames();
    return this.visiblePacks().map((pack) => ({
      name: pack.name,
      ...(pack.root ? { root: pack.root } : {}),
      kind: PACK_KINDS[pack.source] ?? 'configured',
      problems: pack.problems,
      skills: pack.skills.map((item): SkillView => {
        const record = item.status === 'invalid' ? undefined : service.inspect(item.name);
        const firstError = item.problems.find((p) => p.severity === 'error') ?? item.problems[0];
        const reason = item.reason ?? (item.status === 'invalid' && firstError ? firstError.message : undefined);
        const cluster = clusterLabel(record?.meta.cluster);
        const retired = isRetired(item, retiredNames);
        return {
          name: item.name,
          title: item.title || record?.title || '',
          trigger: record?.trigger ?? '',
          description: record?.description ?? '',
          taskType: record?.task_type ?? 'unknown',
          tags: record?.tags ?? [],
          status: retired ? 'inactive' : item.status,
          ...(retired ? { statusReason: 'retired in this workspace (Restore Skill brings it back)', retired: true } : reason ? { statusReason: reason } : {}),
          problems: item.problems,
          ...(item.file ? { sourceFile: item.file, sourceLine: item.line } : {}),
          packName: pack.name,
          ...(item.format ? { format: item.format } : {}),
          ...(record ? { stepCount: record.steps.length } : {}),
          ...(cluster ? { cluster } : {}),
          ...(record?.origin === 'learned' && lineageOf(record) ? { lineage: describeLineage(record) } : {}),
          ...(item.scope ? { learnedScope: item.scope } : {}),
        };
      }),
    }));
  }

  async reload(progress?: ReloadProgress, token?: CancellationLike): Promise<ReloadSummary> {
    const summary = await this.loader.reload(progress, token as vscode.CancellationToken | undefined);
    if (!summary) return { packs: 0, skills: 0, problems: 0, cancelled: token?.isCancellationRequested ?? false };
    return {
      packs: summary.packs.length,
      skills: summary.packs.reduce((n, p) => n + p.skillCount, 0),
      problems: summary.problems.length,
      cancelled: summary.cancelled,
    };
  }

  reindexFile(file: string): Promise<void> {
    return this.loader.reloadFile(file);
  }

  forgetFile(file: string): Promise<void> {
    return this.loader.removeFile(file);
  }

  async validateAll() {
    const report = await this.service.validatePacks();
    return report.problems;
  }
}

/** An active skill the user retired in this workspace: shown as inactive (the badge and the tree read it the same way). */
function isRetired(item: { status: string; name: string }, retiredNames: ReadonlySet<string> | undefined): boolean {
  return item.status === 'active' && retiredNames?.has(item.name) === true;
}
