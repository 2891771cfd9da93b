import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import type { SkillProblem, Span } from '../../core/skills/packs/document/skillProblems';
import { Disposable } from '../lifecycle';
import { duplicateNameProblems } from './duplicateNames';
import type { SkillDocumentValidator } from './skillDocumentValidator';
import type { SkillFileSync } from './skillFileSync';
import { isSkillFile } from './skillFileKinds';
import { SKILL_FILE_GLOB } from '../../core/skills/packs/document/skillFileNames';

export const DIAGNOSTIC_SOURCE = 'toolshed';

export function toRange(span: Span): vscode.Range {
  return new vscode.Range(Math.max(span.line - 1, 0), Math.max(span.column - 1, 0), Math.max(span.endLine - 1, 0), Math.max(span.endColumn - 1, 0));
}

function toDiagnostic(problem: SkillProblem): vscode.Diagnostic {
  const severity =
    problem.severity === 'error'
      ? vscode.DiagnosticSeverity.Error
      : problem.severity === 'warning'
        ? vscode.DiagnosticSeverity.Warning
        : vscode.DiagnosticSeverity.Information;
  const diagnostic = new vscode.Diagnostic(toRange(problem), problem.message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = problem.code;
  if (problem.code === 'unknown-field') diagnostic.tags = [vscode.DiagnosticTag.Unnecessary];
  return diagnostic;
}

/**
 * Diagnostics that follow the document: skill files are validated on open and as you type
 * (debounced), cleared on close. Duplicate names are checked across every skill file in the
 * workspace and flagged on each file involved. "Validate Skill Packs" adds the full check of
 * all packs (closed files included) through `showFullCheck`.
 */
export class SkillDiagnostics extends Disposable {
  private readonly collection = this._register(vscode.languages.createDiagnosticCollection('toolshed-skills'));
  /** Own problems of open documents, by URI. */
  private readonly live = new Map<string, readonly SkillProblem[]>();
  /** Problems from the last full check, by URI (for files that are not open). */
  private readonly fullCheck = new Map<string, readonly SkillProblem[]>();
  /** Explicit skill names per skill file in the workspace (open text wins over disk). */
  private readonly names = new Map<string, ReadonlyArray<{ name: string; span: Span }>>();
  private duplicates = new Map<string, SkillProblem[]>();
  private readonly uris = new Map<string, vscode.Uri>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly updated = this._register(new vscode.EventEmitter<vscode.Uri>());
  /** After a file's diagnostics were published (tests wait on it). */
  readonly onDidUpdate = this.updated.event;

  constructor(
    private readonly validate: SkillDocumentValidator,
    sync: SkillFileSync | undefined,
    private readonly logger: Logger,
    private readonly debounceMs = 300,
  ) {
    super();
    this._register(vscode.workspace.onDidOpenTextDocument((doc) => void this.validateNow(doc)));
    this._register(vscode.workspace.onDidChangeTextDocument((event) => this.validateSoon(event.document)));
    this._register(vscode.workspace.onDidCloseTextDocument((doc) => this.closed(doc)));
    if (sync) this._register(sync.onDidSync((change) => void this.fileChangedOnDisk(change.uri, change.kind === 'deleted')));
    this._register({ dispose: () => this.timers.forEach((t) => clearTimeout(t)) });
    for (const doc of vscode.workspace.textDocuments) void this.validateNow(doc);
  }

  /** Reads every skill file in the workspace once, for the duplicate-name check. */
  async indexWorkspace(): Promise<void> {
    const files = await vscode.workspace.findFiles(SKILL_FILE_GLOB, '**/node_modules/**', 5000);
    await Promise.all(files.map((uri) => this.readNames(uri)));
    this.recomputeDuplicates();
  }

  private async readNames(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    if (this.live.has(key)) return; // the open document is the truth
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const { names } = await this.validate(text, uri.fsPath);
      if (this.live.has(key)) return; // opened meanwhile: the open document is the truth
      this.names.set(key, names);
      this.uris.set(key, uri);
    } catch {
      this.names.delete(key);
    }
  }

  private async fileChangedOnDisk(uri: vscode.Uri, deleted: boolean): Promise<void> {
    const key = uri.toString();
    if (deleted) {
      this.names.delete(key);
      this.fullCheck.delete(key);
      this.live.delete(key);
      this.collection.delete(uri);
    } else {
      await this.readNames(uri);
    }
    this.recomputeDuplicates();
  }

  private isSkillDocument(doc: vscode.TextDocument): boolean {
    return (doc.uri.scheme === 'file' || doc.uri.scheme === 'untitled' || doc.uri.scheme === 'vscode-userdata') && isSkillFile(doc.fileName);
  }

  private validateSoon(doc: vscode.TextDocument): void {
    if (!this.isSkillDocument(doc)) return;
    const key = doc.uri.toString();
    const previous = this.timers.get(key);
    if (previous) clearTimeout(previous);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (!doc.isClosed) void this.validateNow(doc);
      }, this.debounceMs),
    );
  }

  private async validateNow(doc: vscode.TextDocument): Promise<void> {
    if (!this.isSkillDocument(doc)) return;
    const key = doc.uri.toString();
    const version = doc.version;
    try {
      const result = await this.validate(doc.getText(), doc.uri.fsPath);
      // Closed or edited while a large text parsed: the newer validation (or the close) decides.
      if (doc.isClosed || doc.version !== version) return;
      this.live.set(key, result.problems);
      this.uris.set(key, doc.uri);
      const before = JSON.stringify(this.names.get(key) ?? []);
      this.names.set(key, result.names);
      if (before !== JSON.stringify(result.names)) this.recomputeDuplicates();
      else this.publish(key);
    } catch (error) {
      this.logger.error(`Validating ${doc.uri.fsPath} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private closed(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.delete(key);
    if (!this.live.delete(key)) return;
    this.fullCheck.delete(key);
    if (doc.uri.scheme !== 'file') this.names.delete(key);
    // Cleared on close; a duplicate name stays visible as long as the files exist.
    this.recomputeDuplicates();
    this.publish(key);
  }

  private recomputeDuplicates(): void {
    const previous = this.duplicates;
    const byPath = new Map<string, ReadonlyArray<{ name: string; span: Span }>>();
    for (const [key, list] of this.names) byPath.set(key, list);
    this.duplicates = duplicateNameProblems(byPath, (key) => vscode.workspace.asRelativePath(vscode.Uri.parse(key)));
    const touched = new Set([...previous.keys(), ...this.duplicates.keys(), ...this.live.keys()]);
    for (const key of touched) this.publish(key);
  }

  private publish(key: string): void {
    const uri = this.uris.get(key) ?? vscode.Uri.parse(key);
    const own = this.live.get(key) ?? this.fullCheck.get(key) ?? [];
    const ours = this.duplicates.get(key) ?? [];
    // A cross-file duplicate the core reported too (full check) would otherwise show twice.
    const kept = ours.length ? own.filter((p) => p.code !== 'duplicate-name' || p.data?.otherFile === p.file) : own;
    const all = [...kept, ...ours];
    if (all.length === 0) this.collection.delete(uri);
    else this.collection.set(uri, all.map(toDiagnostic));
    this.updated.fire(uri);
  }

  /** Problems currently shown for a document (the code-action provider matches against them). */
  problemsFor(uri: vscode.Uri): readonly SkillProblem[] {
    const key = uri.toString();
    return [...(this.live.get(key) ?? this.fullCheck.get(key) ?? []), ...(this.duplicates.get(key) ?? [])];
  }

  /** Shows the result of a full check: problems of all files, open documents keep their live results. */
  showFullCheck(problems: readonly SkillProblem[]): number {
    for (const key of this.fullCheck.keys()) if (!this.live.has(key)) this.collection.delete(this.uris.get(key) ?? vscode.Uri.parse(key));
    this.fullCheck.clear();
    const byFile = new Map<string, SkillProblem[]>();
    for (const problem of problems) {
      if (!problem.file) continue;
      const uri = vscode.Uri.file(problem.file);
      const key = uri.toString();
      this.uris.set(key, uri);
      const list = byFile.get(key) ?? [];
      list.push(problem);
      byFile.set(key, list);
    }
    for (const [key, list] of byFile) this.fullCheck.set(key, list);
    for (const key of new Set([...byFile.keys(), ...this.live.keys()])) this.publish(key);
    return byFile.size;
  }
}
