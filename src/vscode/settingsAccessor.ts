import * as vscode from 'vscode';
import { readSettings, type SettingsProblem } from '../core/config/readSettings';
import type { ToolshedSettings } from '../core/config/settingsSchema';
import type { Logger } from '../core/platform/ports';
import { Disposable } from './lifecycle';

/**
 * The one place that reads `toolshed.*` settings. Values are parsed by the same zod schema
 * the core and CLI use; a wrong value falls back to its default and the user is told which
 * key to fix. Changes apply without a reload: listeners get the new settings.
 */
export class SettingsAccessor extends Disposable {
  private settings: ToolshedSettings;
  private readonly changed = this._register(new vscode.EventEmitter<ToolshedSettings>());
  readonly onDidChange = this.changed.event;
  private lastProblems = '';
  private readonly reportedNotices = new Set<string>();

  constructor(private readonly logger: Logger) {
    super();
    this.settings = this.read();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('toolshed')) return;
        this.settings = this.read();
        this.changed.fire(this.settings);
      }),
    );
  }

  get current(): ToolshedSettings {
    return this.settings;
  }

  private read(): ToolshedSettings {
    const raw = vscode.workspace.getConfiguration().get<unknown>('toolshed') ?? {};
    const { settings, problems, notices } = readSettings(stripVsCodeInternals(raw));
    this.report(problems);
    for (const notice of notices) if (!this.reportedNotices.has(notice)) this.logger.warn(notice);
    notices.forEach((notice) => this.reportedNotices.add(notice));
    return settings;
  }

  private report(problems: SettingsProblem[]): void {
    const summary = problems.map((p) => `toolshed.${p.key}: ${p.message}`).join('; ');
    if (summary === this.lastProblems) return;
    this.lastProblems = summary;
    if (!summary) return;
    this.logger.warn(`Invalid settings, defaults used instead: ${summary}`);
    void vscode.window
      .showWarningMessage(
        `Toolshed: some settings are invalid and were replaced by defaults (${problems.map((p) => `toolshed.${p.key}`).join(', ')}).`,
        'Open Settings',
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'toolshed');
      });
  }
}

/** `getConfiguration().get('toolshed')` returns a proxy-like object; a JSON copy is plain data. */
function stripVsCodeInternals(raw: unknown): unknown {
  return JSON.parse(JSON.stringify(raw ?? {}));
}
