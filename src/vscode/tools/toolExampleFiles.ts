import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import { nodeFileSystem } from '../../core/platform/nodeFileSystem';
import { loadToolExampleFiles, TOOL_EXAMPLES_FILE_GLOB } from '../../core/tools/examples/toolExamples';
import type { ToolExamplesParse } from '../../core/tools/examples/toolExamples';
import type { ToolSearchService } from '../../core/tools/toolSearchService';
import { Disposable } from '../lifecycle';

const MAX_FILES = 200;

/**
 * Feeds the workspace's `*.tools.yaml` tool-use examples into the tool catalog and keeps them
 * current as files change. In an untrusted workspace the files are ignored: they would put
 * workspace-authored text into every prompt.
 */
export class ToolExampleFiles extends Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private loading: Promise<number> = Promise.resolve(0);

  /** Settles when the latest load has finished (requests wait for it, so examples are never late). */
  get ready(): Promise<number> {
    return this.loading;
  }

  constructor(
    private readonly tools: ToolSearchService,
    private readonly logger: Logger,
    /** Large files parse on the parser thread (see services.ts). */
    private readonly parse?: ToolExamplesParse,
  ) {
    super();
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(TOOL_EXAMPLES_FILE_GLOB));
    for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) {
      this._register(event(() => this.schedule()));
    }
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.schedule()));
    this._register({ dispose: () => clearTimeout(this.timer) });
  }

  /** Reads every example file now. */
  load(): Promise<number> {
    this.loading = this.read().catch((error: unknown) => {
      this.logger.warn(`Tool examples not loaded: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    });
    return this.loading;
  }

  private async read(): Promise<number> {
    if (!vscode.workspace.isTrusted) {
      this.tools.setExampleFiles({});
      return 0;
    }
    const files = await vscode.workspace.findFiles(TOOL_EXAMPLES_FILE_GLOB, '**/node_modules/**', MAX_FILES);
    const { examples, problems } = await loadToolExampleFiles(
      nodeFileSystem,
      files.map((uri) => uri.fsPath),
      this.parse,
    );
    for (const problem of problems) this.logger.warn(`Tool examples: ${problem}`);
    this.tools.setExampleFiles(examples);
    if (files.length > 0) this.logger.info(`Tool examples loaded from ${files.length} *.tools.yaml file(s) for ${Object.keys(examples).length} tool(s)`);
    return files.length;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), 200);
  }
}
