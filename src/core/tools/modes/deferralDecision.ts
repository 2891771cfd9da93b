import type { ToolSearchMode } from '../../config/settingsSchema';

/**
 * Whether a request sends every tool or defers them behind `tool_search` (after
 * Claude Code's auto mode: defer once tool definitions pass 10 % of the context window).
 * Pure: the caller measures the definitions with the model's tokenizer.
 */

/** No request ever carries more tools than this (VS Code / Copilot's hard limit). */
export const MAX_TOOLS_PER_REQUEST = 128;

/** Context window assumed for a model that reports none (0, missing, or not a number). */
export const FALLBACK_MAX_INPUT_TOKENS = 128_000;

type DeferralReason = 'mode_always' | 'mode_off' | 'under_threshold' | 'over_threshold' | 'over_tool_cap';

export interface DeferralDecision {
  mode: ToolSearchMode;
  /** True: tools wait behind `tool_search` (except those pinned `always`). */
  deferred: boolean;
  reason: DeferralReason;
  /** Tools the request could see (after policy and per-tool state). */
  toolCount: number;
  /** Tokens of all their definitions, counted with the model's tokenizer. */
  definitionTokens: number;
  /** The context window the share is measured against. */
  contextWindow: number;
  /** definitionTokens / contextWindow, in percent. */
  percent: number;
  thresholdPercent: number;
  /** True when the model reported no usable context size and the fallback was used. */
  contextWindowAssumed: boolean;
}

export interface DeferralInput {
  mode: ToolSearchMode;
  thresholdPercent: number;
  /** The model's `maxInputTokens` as reported (may be 0, negative, NaN or missing). */
  maxInputTokens: number | undefined;
  toolCount: number;
  definitionTokens: number;
}

function usableContextWindow(maxInputTokens: number | undefined): { tokens: number; assumed: boolean } {
  // Below one token is no window at all (and would make the share infinite).
  if (typeof maxInputTokens === 'number' && Number.isFinite(maxInputTokens) && maxInputTokens >= 1)
    return { tokens: Math.floor(maxInputTokens), assumed: false };
  return { tokens: FALLBACK_MAX_INPUT_TOKENS, assumed: true };
}

export function decideDeferral(input: DeferralInput): DeferralDecision {
  const window = usableContextWindow(input.maxInputTokens);
  // Clamped so the share stays finite even for a nonsense count near Number.MAX_VALUE
  // (× 100 would overflow to Infinity); no real catalog comes near 2^53 tokens.
  const tokens = Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Number.isFinite(input.definitionTokens) ? input.definitionTokens : 0));
  const percent = (tokens / window.tokens) * 100;
  const base = {
    mode: input.mode,
    toolCount: input.toolCount,
    definitionTokens: tokens,
    contextWindow: window.tokens,
    percent,
    thresholdPercent: input.thresholdPercent,
    contextWindowAssumed: window.assumed,
  };
  if (input.mode === 'always') return { ...base, deferred: true, reason: 'mode_always' };
  if (input.mode === 'off') return { ...base, deferred: false, reason: 'mode_off' };
  if (input.toolCount > MAX_TOOLS_PER_REQUEST) return { ...base, deferred: true, reason: 'over_tool_cap' };
  // "exceed": exactly at the threshold still sends everything.
  if (percent > input.thresholdPercent) return { ...base, deferred: true, reason: 'over_threshold' };
  return { ...base, deferred: false, reason: 'under_threshold' };
}

/** `9.8k`, `31k`, `128k`, `950`. */
function compactTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  const k = tokens / 1000;
  return k < 10 ? `${(Math.round(k * 10) / 10).toString()}k` : `${Math.round(k)}k`;
}

/** A percentage as people read it: `7 %`, `0.4 %`, `24 %`. */
function compactPercent(percent: number): string {
  if (percent > 0 && percent < 1) return `${(Math.round(percent * 10) / 10).toString()} %`;
  return `${Math.round(percent)} %`;
}

/**
 * One line for the answer footer, `/tools` and the Activated Tools view:
 * "43 tools, 9.8k tokens = 7 % of 128k: all sent" / "212 tools, 31k tokens = 24 %: deferred".
 */
export function describeDeferral(decision: DeferralDecision): string {
  const tools = `${decision.toolCount} tool${decision.toolCount === 1 ? '' : 's'}`;
  const share = `${tools}, ${compactTokens(decision.definitionTokens)} tokens = ${compactPercent(decision.percent)} of ${compactTokens(decision.contextWindow)}${decision.contextWindowAssumed ? ' (assumed)' : ''}`;
  const outcome = decision.deferred ? 'deferred' : decision.toolCount > MAX_TOOLS_PER_REQUEST ? `${MAX_TOOLS_PER_REQUEST} sent, the rest deferred` : 'all sent';
  const why: Record<DeferralReason, string> = {
    mode_always: 'mode always',
    mode_off: 'mode off',
    under_threshold: `auto, at most ${decision.thresholdPercent} %`,
    over_threshold: `auto, over ${decision.thresholdPercent} %`,
    over_tool_cap: `auto, over ${MAX_TOOLS_PER_REQUEST} tools`,
  };
  return `${share}: ${outcome} (${why[decision.reason]})`;
}
