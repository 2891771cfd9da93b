import { constants } from 'node:os';

/**
 * The signals a long-lived door (the MCP server, the resident hook) ends on as it ends on its own:
 * a runtime ending its MCP servers at a session's end (each sends a signal, then SIGKILL — within
 * 25 ms to 0.5 s for the three runtimes, 2 s for the MCP SDK's clients: docs/harnesses.md), Ctrl-C
 * in a terminal, a terminal closed, a logout. Node's default for each is to die at once, losing
 * what the door had not saved yet: a cold start's whole index, its use counts.
 */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Calls `stop` on the first stop signal; the door then saves and ends as when its client leaves
 * (a load under way finishes first). Ctrl-C again ends the process at once, with SIGINT's usual
 * exit code. Other signals meanwhile change nothing: Claude Code sends SIGINT, then SIGTERM 0.1 s
 * later, then SIGKILL ~0.5 s after the first (docs/harnesses.md), and the save should have all of
 * that. Returns the function that removes the handlers.
 */
export function onStopSignals(stop: () => void): () => void {
  let stopping = false;
  let interrupted = false;
  const handler = (signal: NodeJS.Signals) => {
    if (signal === 'SIGINT' && interrupted) process.exit(128 + constants.signals.SIGINT);
    interrupted ||= signal === 'SIGINT';
    if (stopping) return;
    stopping = true;
    stop();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, handler);
  };
}
