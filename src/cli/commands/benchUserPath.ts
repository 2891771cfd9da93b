import { nullLogger } from '../../core/platform/basicPorts';
import { HOST_LIST_MAX_STALE_MS, HOST_LIST_POLL_MS, HostToolCatalog, pollHostToolList } from '../../core/tools/hostToolCatalog';
import type { ToolInput } from '../../core/tools/toolRecord';
import { defaultService } from './toolCliSupport';
import type { Embedder } from '../../core/search/embedding/embedder';

/**
 * `bench tools --user-path`: the cost of a `tool_search` call as the VS Code extension serves
 * it, beside the engine alone, interleaved query by query in one process (a ratio within one
 * run, robust to a busy machine).
 *
 * User path = what `toolSearchTool.invoke` does: catalog sync from the host's tool list (a
 * stand-in for `vscode.lm.tools` that behaves like VS Code 1.139's: a fresh array per read of
 * one cached frozen object per tool, no change event), the deferred count the sidebar shows, a
 * run with the visibility policy, the search (activating what it finds), and the JSON text
 * returned to the model. The list is read as the extension reads it: by the same poll
 * (`pollHostToolList`, a timer in this event loop) and the same staleness rule on the search
 * path. Each search is timed from the moment it is due, before it yields to the event loop, so
 * a search that arrives while the poll reads the list waits for it inside its timing — as a
 * `tool_search` message waits in the extension host. Searches run back to back (hundreds a
 * second, far more than an agent makes; the query list repeated for at least five poll periods),
 * the busiest case for such collisions.
 * `host_list_read_ms` is one read's cost on its own; `list_reads_during_run` and
 * `searches_behind_a_poll` say how often that happened.
 * Engine path = `run.search` on a long-lived run.
 */

export interface UserPathTiming {
  user_p50_ms: number;
  user_p95_ms: number;
  engine_p50_ms: number;
  engine_p95_ms: number;
  user_engine_p95_ratio: number;
  host_list_read_ms: number;
  /** Share of one core the poll costs while nothing changes (one read per poll period). */
  idle_poll_cpu_pct: number;
  user_searches: number;
  list_reads_during_run: number;
  searches_behind_a_poll: number;
}

interface HostTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object | undefined;
  readonly tags: readonly string[];
}

/** The measured run lasts at least this long: five poll periods. */
const MIN_RUN_MS = 5 * HOST_LIST_POLL_MS;

const HOW_TO_CALL = 'Call a tool you can see directly. For one not in your tool list, call tool_invoke with {"name": "<tool name>", "input": {…}}.';

export async function measureUserPath(tools: readonly ToolInput[], queries: readonly string[], warmUp: number, embedder?: Embedder): Promise<UserPathTiming> {
  const service = await defaultService();
  service.embeddings.use(embedder);
  // VS Code keeps one frozen API object per tool and maps them into a new array on each read.
  const registered = new Map(
    tools.map((t) => [
      t.name,
      {
        apiObject: Object.freeze({
          name: t.name,
          description: t.description ?? '',
          inputSchema: t.inputSchema as object | undefined,
          tags: Object.freeze([...(t.tags ?? [])]),
        }),
      },
    ]),
  );
  let reads = 0;
  const readTools = (): HostTool[] => {
    reads++;
    return Array.from(registered.values())
      .map((entry) => entry.apiObject)
      .filter((tool) => tool.name.length > 0);
  };
  const host = new HostToolCatalog<HostTool>({
    service,
    logger: nullLogger,
    readTools,
    toInput: (tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, tags: [...tool.tags], source: 'mcp' }),
    hasChangeEvent: false,
    maxStaleMs: HOST_LIST_MAX_STALE_MS,
  });
  // As services.ts: the sidebar's deferred count follows every catalog or activation change.
  service.onDidChange(() => host.deferredCount());
  host.sync();
  let pollError: unknown;
  const poll = pollHostToolList(host, (error) => {
    pollError ??= error;
  });
  const engineRun = await service.startRun();
  const userPath = async (query: string) => {
    host.sync();
    host.deferredCount();
    const result = await service.withRun({ sessionId: 'copilot-agent-mode', isVisible: () => true }, (run) => run.search({ query }));
    return result.ok ? JSON.stringify({ ...result.output, how_to_call: HOW_TO_CALL }) : result.error;
  };
  const enginePath = (query: string) => engineRun.search({ query }, { activate: false });
  // A search message is handled in its own turn of the event loop, after any timer that is due.
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  for (let i = 0; queries.length > 0 && i < warmUp; i++) {
    await nextTurn();
    await userPath(queries[i % queries.length]);
    enginePath(queries[i % queries.length]);
  }
  const user: number[] = [];
  const engine: number[] = [];
  const readsBefore = reads;
  let searchesBehindAPoll = 0;
  // Several poll periods (the query list repeated as needed): a run shorter than one period
  // would never meet the poll.
  const runStart = performance.now();
  for (let i = 0; queries.length > 0 && (i < queries.length || performance.now() - runStart < MIN_RUN_MS); i++) {
    const query = queries[i % queries.length];
    let start = performance.now();
    enginePath(query);
    engine.push(performance.now() - start);
    start = performance.now();
    const readsAtArrival = reads;
    await nextTurn();
    if (reads !== readsAtArrival) searchesBehindAPoll++;
    await userPath(query);
    user.push(performance.now() - start);
  }
  const pollsDuringRun = reads - readsBefore;
  poll.dispose();
  if (pollError !== undefined) throw pollError instanceof Error ? pollError : new Error(String(pollError));
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
    idle_poll_cpu_pct: round((100 * hostListReadMs) / HOST_LIST_POLL_MS),
    user_searches: user.length,
    list_reads_during_run: pollsDuringRun,
    searches_behind_a_poll: searchesBehindAPoll,
  };
}
