import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import { nodeFileSystem } from '../../core/platform/nodeFileSystem';
import { isExecutableFile } from '../../core/platform/nodeProcesses';
import { discoverScriptTools } from '../../core/skills/scripts/scriptDiscovery';
import type { ScriptProblem, SkillScriptTool } from '../../core/skills/scripts/scriptDiscovery';
import { scriptSourcesOf } from '../../core/skills/scripts/scriptSources';
import type { SkillService } from '../../core/skills/skillService';
import type { ToolInput } from '../../core/tools/toolRecord';
import { Disposable } from '../lifecycle';

const SKILL_SCRIPT_SOURCE = 'skill-script';

/** Which skills have scripts, and their records. */
type SkillListing = Pick<SkillService, 'skillsWithScripts' | 'inspect'>;

/**
 * The skill scripts Toolshed offers as deferred tools (its own execution registry: they are
 * not `vscode.lm` tools, so only Toolshed's loop and `tool_invoke` can reach them). Rebuilt
 * after every skill change, retirement and restore, and when the workspace becomes trusted; empty while it is not
 * trusted, so an untrusted workspace never lists, finds or runs one. Problems (links, files
 * that cannot run, name collisions, static-check findings) are warnings on the SKILL.md.
 */
export class SkillScriptTools extends Disposable {
  private tools = new Map<string, SkillScriptTool>();
  /** The catalog's view, built once per rebuild: the same objects until scripts change (the catalog's identity check). */
  private inputs: ToolInput[] = [];
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection('toolshed-skill-scripts'));
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    /** The skill service: the SKILL.md skills with `scripts/`, and their records. */
    private readonly skills: SkillListing,
    private readonly logger: Logger,
    /** Names of every tool that is not a skill script (scripts never take one). */
    private readonly otherToolNames: () => Iterable<string>,
    /** Skills retired in this workspace (the ledger): their scripts are out of use too; refresh when it changes. */
    private readonly retiredNames: () => ReadonlySet<string>,
  ) {
    super();
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refresh()));
  }

  /** Script tools for the tool catalog (deferred; found with tool_search). */
  toolInputs(): readonly ToolInput[] {
    return this.inputs;
  }

  private static toInputs(tools: ReadonlyMap<string, SkillScriptTool>): ToolInput[] {
    return [...tools.values()].map((tool) => ({
      name: tool.toolName,
      description: tool.description,
      inputSchema: tool.inputSchema,
      tags: ['skill-script', tool.skillName, tool.kind],
      source: SKILL_SCRIPT_SOURCE,
      sideEffects: 'external',
      loadingMode: 'deferred',
    }));
  }

  get(name: string): SkillScriptTool | undefined {
    return vscode.workspace.isTrusted ? this.tools.get(name) : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Settles after the latest refresh (tests and the first request wait for it). */
  get ready(): Promise<void> {
    return this.refreshing;
  }

  /** Re-discovers the scripts of every active SKILL.md skill that is not retired (serialised; the last call wins). */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing
      .then(() => this.rebuild())
      .catch((error: unknown) => {
        this.logger.error(`Skill scripts could not be listed: ${error instanceof Error ? error.message : String(error)}`);
      });
    return this.refreshing;
  }

  private async rebuild(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.replace(new Map(), []);
      return;
    }
    const sources = scriptSourcesOf(this.skills, this.retiredNames());
    const catalog = await discoverScriptTools({ ...nodeFileSystem, isExecutable: isExecutableFile }, sources, new Set(this.otherToolNames()));
    this.replace(new Map(catalog.tools.map((tool) => [tool.toolName, tool])), catalog.problems);
    this.logger.info(`Skill scripts: ${catalog.tools.length} offered as tools, ${catalog.problems.length} problem(s).`);
  }

  private replace(tools: Map<string, SkillScriptTool>, problems: readonly ScriptProblem[]): void {
    this.tools = tools;
    this.inputs = SkillScriptTools.toInputs(tools);
    this.diagnostics.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const problem of problems) {
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(0, 0, 0, 3),
        problem.message,
        problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      diagnostic.source = 'Toolshed skill scripts';
      byFile.set(problem.skillFile, [...(byFile.get(problem.skillFile) ?? []), diagnostic]);
    }
    for (const [file, list] of byFile) this.diagnostics.set(vscode.Uri.file(file), list);
    this.changed.fire();
  }
}
