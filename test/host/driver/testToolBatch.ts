import * as vscode from 'vscode';

/**
 * A configurable batch of fixture tools, named like the tools of one MCP server
 * (`mcp_<server>_<word>`), for tests that need 40, 200 or any number of tools. They are
 * registered at run time with `vscode.lm.registerToolDefinition` (proposed API
 * `languageModelToolSupportsModel`, enabled for this driver only), so the normal catalog of
 * every other test stays small. Each tool's description carries a made-up word of its own, so
 * a test can search for exactly one.
 */
export interface ToolBatchControl {
  /**
   * Registers `count` tools of `server` (default `fixturemcp`); returns their names. Replaces an
   * earlier batch of that server. `tags`: as VS Code tags the tools of a real MCP server (`mcp`).
   */
  register(count: number, server?: string, tags?: string[]): string[];
  /** The made-up word in the description of the batch tool `index`. */
  wordOf(index: number): string;
  /** Unregisters every batch. */
  clear(): void;
  readonly calls: Array<{ name: string; input: unknown }>;
}

interface ToolDefinitionApi {
  registerToolDefinition(
    definition: { name: string; displayName: string; description: string; inputSchema: object; tags?: string[] },
    tool: vscode.LanguageModelTool<object>,
  ): vscode.Disposable;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'nu', 'pe', 'ri', 'so', 'tu', 've', 'za'];

/** 0 → "kaka", 1 → "kalo", … distinct for the first 1,000 indexes; never an English word stem. */
function wordOf(index: number): string {
  const a = SYLLABLES[Math.floor(index / 100) % 10];
  const b = SYLLABLES[Math.floor(index / 10) % 10];
  const c = SYLLABLES[index % 10];
  return `${a}${b}${c}x`;
}

export function createToolBatch(context: vscode.ExtensionContext): ToolBatchControl {
  const batches = new Map<string, vscode.Disposable[]>();
  const calls: Array<{ name: string; input: unknown }> = [];
  const api = vscode.lm as unknown as Partial<ToolDefinitionApi>;
  const unregister = (server: string) => {
    for (const disposable of batches.get(server) ?? []) disposable.dispose();
    batches.delete(server);
  };
  context.subscriptions.push({ dispose: () => [...batches.keys()].forEach(unregister) });
  return {
    calls,
    wordOf,
    register(count, server = 'fixturemcp', tags) {
      if (typeof api.registerToolDefinition !== 'function') {
        throw new Error(
          'vscode.lm.registerToolDefinition is unavailable: the host must enable the proposed API languageModelToolSupportsModel for the test driver (--enable-proposed-api toolshed-test.toolshed-test-driver).',
        );
      }
      unregister(server);
      const disposables: vscode.Disposable[] = [];
      const names: string[] = [];
      for (let i = 0; i < count; i++) {
        const name = `mcp_${server}_${wordOf(i)}`;
        names.push(name);
        disposables.push(
          api.registerToolDefinition(
            {
              name,
              displayName: `Batch tool ${i}`,
              description: `Fixture operation ${wordOf(i)}: returns the ${wordOf(i)} record of ${server}.`,
              inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
              ...(tags ? { tags } : {}),
            },
            {
              invoke(options) {
                calls.push({ name, input: JSON.parse(JSON.stringify(options.input ?? {})) });
                return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`${wordOf(i)} record`)]);
              },
            },
          ),
        );
      }
      batches.set(server, disposables);
      return names;
    },
    clear() {
      [...batches.keys()].forEach(unregister);
      calls.length = 0;
    },
  };
}
