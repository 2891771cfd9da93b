import type { ToolExecutor } from '../../core/planner/plannerPorts';
import type { TrajectoryCall } from '../../core/learning/extraction/trajectory';

/**
 * Collects one @toolshed turn's tool calls, in order, by wrapping the planner's executor — the
 * planner loop itself is not changed. A thrown error is recorded and re-thrown, so the loop
 * reports it exactly as before.
 */
export class TurnRecorder {
  readonly calls: TrajectoryCall[] = [];

  wrap(executor: ToolExecutor): ToolExecutor {
    return {
      invoke: async (name, input, signal) => {
        try {
          const result = await executor.invoke(name, input, signal);
          this.calls.push({ tool: name, input, ok: !result.isError, ...(result.isError ? { error: result.text.slice(0, 1000) } : {}) });
          return result;
        } catch (error) {
          this.calls.push({ tool: name, input, ok: false, error: (error instanceof Error ? error.message : String(error)).slice(0, 1000) });
          throw error;
        }
      },
    };
  }
}
