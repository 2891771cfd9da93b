import { recordDoorDecision } from '../../core/runtimes/doors/doorDecision';
import { GATEWAY_CALL_TOOL_NAME, GATEWAY_FIND_TOOL_NAME } from '../../core/platform/toolNames';

/**
 * What the gateway tells the ledger: one decision per search and per call, counts and names
 * only. The gateway takes the recorder as a function; `toolshed mcp` passes `gatewayDoorRecorder`,
 * which appends each decision to the workspace's door journal (the MCP door), where
 * `toolshed ledger` counts it and `toolshed why` explains the last one.
 */
export interface GatewayDecision {
  at: number;
  action: 'search' | 'call';
  /** The search words, or the served name a call asked for (redacted where it is stored). */
  request: string;
  /** Tokens of what the gateway handed the model: a search's tool definitions, a call's answer. */
  tokens: number;
  /** Served names a search returned. */
  found: string[];
  /** The served name a call ran. */
  called?: string;
  /** The upstream server a call went to (its name in the config file). */
  server?: string;
  failed: boolean;
}

export type GatewayLedger = (decision: GatewayDecision) => void;

/** Records into `workspace`'s door journal; `client` names the MCP client once it has said who it is. */
export function gatewayDoorRecorder(workspace: string, client: () => string | undefined, log: (line: string) => void, home?: string): GatewayLedger {
  return (decision) => {
    const problem = recordDoorDecision(
      workspace,
      {
        door: 'mcp',
        runtime: client() ?? 'mcp',
        at: decision.at,
        action: decision.action === 'search' ? GATEWAY_FIND_TOOL_NAME : GATEWAY_CALL_TOOL_NAME,
        request: decision.request,
        // The tools put in front of the model: those a search found, or the one a call ran.
        injected: decision.action === 'search' ? decision.found : decision.called ? [decision.called] : [],
        searches: decision.action === 'search' ? 1 : 0,
        tokens: decision.tokens,
        ...(decision.failed
          ? { note: decision.action === 'search' ? 'the search failed' : `the call failed${decision.server ? ` (MCP server "${decision.server}")` : ''}` }
          : {}),
      },
      home ? { home } : {},
    );
    if (problem) log(problem);
  };
}
