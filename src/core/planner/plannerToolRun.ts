import type { ToolRun } from '../tools/toolRun';
import { NO_SUCH_TOOL_MESSAGE } from '../tools/toolText';
import type { PlannerToolRun } from './plannerPorts';

/** The planner's tool port over one ToolRun of the tool-search service. */
export function plannerToolRunFrom(run: ToolRun): PlannerToolRun {
  return {
    visibleDefinitions: async () => run.toolDefinitions(),
    allDefinitions: async () => run.toolDefinitions(run.permittedTools()),
    promptBlocks: () => run.promptBlocks(),
    async search(input) {
      const before = new Set(run.visibleTools().map((tool) => tool.name));
      const result = run.search(input);
      if (!result.ok) return { resultText: result.error, found: [], activated: [] };
      const activated = run
        .visibleTools()
        .map((tool) => tool.name)
        .filter((name) => !before.has(name));
      return {
        resultText: JSON.stringify(result.output),
        found: result.output.tools.map((tool) => tool.name),
        activated,
      };
    },
    async resolveCall(name) {
      const result = run.resolveCall(name);
      return result.ok ? { ok: true, activated: result.activated } : { ok: false, message: result.error };
    },
    unknownToolMessage: () => NO_SUCH_TOOL_MESSAGE,
    preActivate: async (names, max, reason) => run.preActivate(names, max, reason),
    prepareTurn: (request) => run.prepareTurn(request),
    activateForRequest: async (request) => run.activateForRequest(request),
    async selectionExchange(names) {
      const exchange = run.selectionExchange(names);
      return exchange ? { query: exchange.query, resultText: JSON.stringify(exchange.output) } : undefined;
    },
    // ToolRun counts a call when it resolves it; the outcome feeds the pick prior.
    recordCall: (name, succeeded) => run.recordOutcome(name, succeeded),
  };
}
