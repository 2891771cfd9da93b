import type * as vscode from 'vscode';
import { markStart } from '../core/platform/startTrace';

/**
 * Why Toolshed's services could not open, in the words every surface uses: a tool's answer, a
 * command's error, the participant's reply, the views' row. The log has the stack.
 */
export class ToolshedStartError extends Error {
  constructor(readonly reason: string) {
    super(`Toolshed could not start: ${reason}. See the Toolshed log ("Toolshed: Show Log"); reload the window to try again.`);
    this.name = 'ToolshedStartError';
  }
}

/** What a surface registered before the services are open holds: a way to wait for them. */
export interface OpeningServices<S> {
  /**
   * Resolves with the services once they are open and every surface is wired to them; rejects
   * with a `ToolshedStartError` when the open failed. It settles either way: nothing waits forever.
   */
  whenReady(): Promise<S>;
  /** Why the open failed, once it has (undefined while opening and once open). */
  readonly failure: ToolshedStartError | undefined;
}

/**
 * The services while they open. `activate()` returns before the stores are open (the skill store's
 * open is most of a warm start), so the contributed surfaces are registered at once and wait here;
 * the composition root settles it once, after wiring the surfaces to the services.
 * Plain TypeScript (no runtime `vscode`), so it is tested in Node.
 */
export class ServicesOpening<S> implements OpeningServices<S> {
  readonly ready: Promise<S>;
  private settle!: { resolve(services: S): void; reject(error: ToolshedStartError): void };
  private error: ToolshedStartError | undefined;
  private settled = false;

  constructor() {
    this.ready = new Promise<S>((resolve, reject) => (this.settle = { resolve, reject }));
    // A failure is reported by each surface that waits and by the composition root: never unhandled.
    this.ready.catch(() => undefined);
  }

  whenReady(): Promise<S> {
    return this.ready;
  }

  get failure(): ToolshedStartError | undefined {
    return this.error;
  }

  opened(services: S): void {
    if (this.settled) return;
    this.settled = true;
    this.settle.resolve(services);
  }

  failed(cause: unknown): ToolshedStartError {
    const error = cause instanceof ToolshedStartError ? cause : new ToolshedStartError(cause instanceof Error ? cause.message : String(cause));
    if (this.settled) return error;
    this.settled = true;
    this.error = error;
    this.settle.reject(error);
    return error;
  }
}

/** What the command placeholders use of `vscode.commands`. */
export type CommandRegistry = Pick<typeof vscode.commands, 'registerCommand' | 'executeCommand'>;

/**
 * Registers each of `ids` (the contributed commands) at once with a placeholder: a command run
 * while the services open waits for them, then runs the command's own registration. `replace()`
 * disposes the placeholders; the composition root calls it right before it registers the real
 * commands, in the same synchronous step, so VS Code never finds a contributed command missing.
 * After a failed open the placeholders stay and each run fails with the start's error.
 */
export function registerOpeningCommands(
  ids: readonly string[],
  opening: OpeningServices<unknown>,
  commands: CommandRegistry,
): vscode.Disposable & { replace(): void } {
  const placeholders = ids.map((id) =>
    commands.registerCommand(id, async (...args: unknown[]) => {
      await opening.whenReady();
      return commands.executeCommand(id, ...args);
    }),
  );
  const replace = () => {
    for (const placeholder of placeholders.splice(0)) placeholder.dispose();
  };
  return { replace, dispose: replace };
}

/**
 * A language-model tool registered at once whose implementation is made from the services once
 * they are open: a call during the open waits for them, and after a failed open it answers with
 * the start's error instead of hanging. With `message` (an invocation message from the input
 * alone), the workbench's `prepareInvocation` is answered at once while they open, so its next
 * crossing, `invoke`, overlaps the open too and only the answer is left once they are open.
 */
export function openingTool<S, T>(
  opening: OpeningServices<S>,
  make: (services: S) => vscode.LanguageModelTool<T>,
  failureResult: (error: ToolshedStartError) => vscode.LanguageModelToolResult,
  message?: (input: T) => string,
): vscode.LanguageModelTool<T> {
  let made: vscode.LanguageModelTool<T> | undefined;
  let making: Promise<vscode.LanguageModelTool<T>> | undefined;
  const tool = () =>
    (making ??= opening.whenReady().then((services) => {
      made = make(services);
      return made;
    }));
  return {
    async prepareInvocation(options, token) {
      markStart('tool:prepare');
      if (!made && message) return { invocationMessage: message(options.input) };
      const ready = await tool().catch(() => undefined);
      return ready?.prepareInvocation?.(options, token);
    },
    async invoke(options, token) {
      markStart('tool:invoke');
      let ready: vscode.LanguageModelTool<T>;
      try {
        ready = await tool();
      } catch (error) {
        return failureResult(error instanceof ToolshedStartError ? error : new ToolshedStartError(String(error)));
      }
      markStart('tool:made');
      return ready.invoke(options, token);
    },
  };
}

/** The row a view shows while the services open, or why they could not. */
export interface OpeningRow {
  readonly opening: true;
}

/**
 * The data provider of a view registered before the services are open. Until the view's own
 * provider is attached it shows one row — "opening", then the start's error if the open failed —
 * never an empty tree (an empty Skill Directory shows its "No skills yet" welcome). Attached, it
 * passes everything through, so the view keeps its `TreeView` (selection, reveal, badge).
 */
type TreeChange<T> = T | T[] | OpeningRow | undefined | null | void;

export class OpeningTreeDataProvider<T> implements vscode.TreeDataProvider<T | OpeningRow> {
  private provider: vscode.TreeDataProvider<T> | undefined;
  private attachment: vscode.Disposable | undefined;
  private readonly row: OpeningRow = { opening: true };
  private readonly listeners = new Set<(change: TreeChange<T>) => void>();

  constructor(
    private readonly opening: OpeningServices<unknown>,
    private readonly rowItem: (failure: ToolshedStartError | undefined) => vscode.TreeItem,
  ) {
    // A failed open turns the row into the error.
    opening.whenReady().then(undefined, () => this.fire(undefined));
  }

  readonly onDidChangeTreeData: vscode.Event<TreeChange<T>> = (listener, thisArgs?: unknown, disposables?: vscode.Disposable[]) => {
    const bound = (change: TreeChange<T>) => listener.call(thisArgs, change);
    this.listeners.add(bound);
    const subscription = { dispose: () => void this.listeners.delete(bound) };
    disposables?.push(subscription);
    return subscription;
  };

  /** Hands the view to its own provider and redraws it from the root. */
  attach(provider: vscode.TreeDataProvider<T>): void {
    this.attachment?.dispose();
    this.provider = provider;
    this.attachment = provider.onDidChangeTreeData?.((change) => this.fire(change));
    this.fire(undefined);
  }

  getChildren(element?: T | OpeningRow): vscode.ProviderResult<Array<T | OpeningRow>> {
    if (this.provider) return element === this.row ? [] : this.provider.getChildren(element as T | undefined);
    return element === undefined ? [this.row] : [];
  }

  getTreeItem(element: T | OpeningRow): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (element === this.row || !this.provider) return this.rowItem(this.opening.failure);
    return this.provider.getTreeItem(element as T);
  }

  getParent(element: T | OpeningRow): vscode.ProviderResult<T | OpeningRow> {
    if (element === this.row || !this.provider?.getParent) return undefined;
    return this.provider.getParent(element as T);
  }

  dispose(): void {
    this.attachment?.dispose();
    this.listeners.clear();
  }

  private fire(change: TreeChange<T>): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

/**
 * The views, created at activation with an `OpeningTreeDataProvider` each: a view's registration
 * attaches its own provider once the services are open and gets the view back.
 */
export interface TreeViewSlots {
  attach<T>(viewId: string, provider: vscode.TreeDataProvider<T>): vscode.TreeView<T>;
}
