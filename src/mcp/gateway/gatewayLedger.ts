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
  /** `core_set`: the learned core set changed (a notice for `toolshed why`; not counted as a decision). */
  action: 'search' | 'call' | 'core_set';
  /** The search words, or the served name a call asked for (redacted where it is stored). */
  request: string;
  /** Tokens of what the gateway handed the model: a search's tool definitions, a call's answer. */
  tokens: number;
  /** Served names a search returned (for `core_set`, the tools the learned core set lists now). */
  found: string[];
  /** The served name a call ran. */
  called?: string;
  /** The upstream server a call went to (its name in the config file). */
  server?: string;
  failed: boolean;
  /** The call's tool was not listed directly: a search found it, or the model named it (the learned core set counts these). */
  missed?: boolean;
  /** Why: a core-set change, or why the called tool was listed directly. */
  note?: string;
}

export type GatewayLedger = (decision: GatewayDecision) => void;

/** Records into `workspace`'s door journal; `client` names the MCP client once it has said who it is. */
export function gatewayDoorRecorder(workspace: string, client: () => string | undefined, log: (line: string) => void, home?: string): GatewayLedger {
  return (decision) => {
    const failure = decision.failed
      ? decision.action === 'search'
        ? 'The search failed.'
        : `The call failed${decision.server ? ` (MCP server "${decision.server}")` : ''}.`
      : undefined;
    const note = [failure, decision.note].filter(Boolean).join(' ');
    const problem = recordDoorDecision(
      workspace,
      {
        door: 'mcp',
        runtime: client() ?? 'mcp',
        at: decision.at,
        action: decision.action === 'search' ? GATEWAY_FIND_TOOL_NAME : decision.action === 'call' ? GATEWAY_CALL_TOOL_NAME : 'learned_core_set',
        request: decision.request,
        // The tools put in front of the model: those a search found (or the core set lists), or the one a call ran.
        injected: decision.action === 'call' ? (decision.called ? [decision.called] : []) : decision.found,
        searches: decision.action === 'search' ? 1 : 0,
        tokens: decision.tokens,
        ...(decision.missed && decision.called ? { missed: [decision.called] } : {}),
        ...(note ? { note } : {}),
      },
      // A core-set change is only a notice: the journal keeps decisions (and the core set is folded from them).
      { ...(home ? { home } : {}), ...(decision.action === 'core_set' ? { journal: false } : {}) },
    );
    if (problem) log(problem);
  };
}
