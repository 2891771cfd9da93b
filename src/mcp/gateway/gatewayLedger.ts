/**
 * What the gateway tells the ledger: one decision per search and per call, counts and names
 * only (never a request or an answer). The gateway takes the recorder as a function, so the
 * command that starts it decides where decisions go (the per-workspace door journal).
 */
export interface GatewayDecision {
  at: number;
  action: 'search' | 'call';
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
