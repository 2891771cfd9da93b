import { nullLogger } from '../../core/platform/basicPorts';
import { HostToolCatalog } from '../../core/tools/hostToolCatalog';
import type { ToolInput } from '../../core/tools/toolRecord';
import type { FtsEngine } from '../../core/sql/sqlEngine';
import { defaultService } from './toolCliSupport';

/**
 * `bench tools --user-path`: the cost of a `tool_search` call as the VS Code extension serves
 * it, beside the engine alone, interleaved query by query in one process (a ratio within one
 * run, robust to a busy machine).
 *
 * User path = what `toolSearchTool.invoke` does: catalog sync from the host's tool list (a
 * stand-in for `vscode.lm.tools` that behaves like VS Code 1.139's: a fresh array per read of
 * one cached frozen object per tool, no change event), the deferred count the sidebar shows, a
 * run with the visibility policy, the search (activating what it finds), and the JSON text
 * returned to the model. As in the extension, the list is read and identity-checked at most
 * once a second (by the adapter's poll, off the search path): every `POLL_EVERY`-th query here
 * pays that read inside its timing, and `host_list_read_ms` is one read's cost on its own.
 * Engine path = `run.search` on a long-lived run.
 */

/** One host-list read per this many queries (≈ a read per second at tens of searches a second). */
const POLL_EVERY = 20;

export interface UserPathTiming {
  user_p50_ms: number;
  user_p95_ms: number;
  engine_p50_ms: number;
  engine_p95_ms: number;
  user_engine_p95_ratio: number;
  host_list_read_ms: number;
}

interface HostTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object | undefined;
  readonly tags: readonly string[];
}

const HOW_TO_CALL = 'Call a tool you can see directly. For one not in your tool list, call tool_invoke with {"name": "<tool name>", "input": {…}}.';

export async function measureUserPath(
  tools: readonly ToolInput[],
  queries: readonly string[],
  allowedFts: FtsEngine[] | undefined,
  warmUp: number,
): Promise<UserPathTiming> {
  const service = await defaultService(allowedFts);
  // VS Code keeps one frozen API object per tool and maps them into a new array on each read.
  const registered = new Map(tools.map((t) => [t.name, { apiObject: Object.freeze({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema as object | undefined, tags: Object.freeze([...(t.tags ?? [])]) }) }]));
  const readTools = (): HostTool[] => Array.from(registered.values()).map((entry) => entry.apiObject).filter((tool) => tool.name.length > 0);
  const host = new HostToolCatalog<HostTool>({
    service,
    logger: nullLogger,
    readTools,
    toInput: (tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, tags: [...tool.tags], source: 'mcp' }),
    hasChangeEvent: false,
    maxStaleMs: Infinity,
  });
  // As services.ts: the sidebar's deferred count follows every catalog or activation change.
  service.onDidChange(() => host.deferredCount());
  host.sync();
  const engineRun = await service.startRun();
  let queryCount = 0;
  const userPath = async (query: string) => {
    host.sync({ fresh: ++queryCount % POLL_EVERY === 0 });
    host.deferredCount();
    const result = await service.withRun({ sessionId: 'copilot-agent-mode', isVisible: () => true }, (run) => run.search({ query }));
    return result.ok ? JSON.stringify({ ...result.output, how_to_call: HOW_TO_CALL }) : result.error;
  };
  const enginePath = (query: string) => engineRun.search({ query }, { activate: false });
  for (let i = 0; queries.length > 0 && i < warmUp; i++) {
    await userPath(queries[i % queries.length]);
    enginePath(queries[i % queries.length]);
  }
  const user: number[] = [];
  const engine: number[] = [];
  for (const query of queries) {
    let start = performance.now();
    enginePath(query);
    engine.push(performance.now() - start);
    start = performance.now();
    await userPath(query);
    user.push(performance.now() - start);
  }
  engineRun.end();
  const readStart = performance.now();
  for (let i = 0; i < 20; i++) host.sync({ fresh: true });
  const hostListReadMs = (performance.now() - readStart) / 20;
  await service.dispose();
  const p = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  };
  const round = (value: number) => Number(value.toFixed(3));
  return {
    user_p50_ms: round(p(user, 0.5)),
    user_p95_ms: round(p(user, 0.95)),
    engine_p50_ms: round(p(engine, 0.5)),
    engine_p95_ms: round(p(engine, 0.95)),
    user_engine_p95_ratio: round(p(user, 0.95) / Math.max(p(engine, 0.95), 1e-6)),
    host_list_read_ms: round(hostListReadMs),
  };
}
