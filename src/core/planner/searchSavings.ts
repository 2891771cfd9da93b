import { TOOL_SEARCH_TOOL_NAME } from '../platform/toolNames';

/**
 * What tools from skills saved a run, claiming only what the run measured.
 *
 * Definition. A tool pre-activated from an injected skill's `suggested_tools` *saved a search*
 * when the model called it before any `tool_search` of this run had returned it: without
 * pre-activation it stays deferred, so the model would have had to find it first. The smallest
 * search that loads tools a skill names is one `tool_search` call with `select:<names>` (one
 * call loads them all), so the saving claimed is one `tool_search` round however many such tools
 * there were, and its tokens are that exact call plus the result `tool_search` would return,
 * counted with the request model's tokenizer ("≈": the model might have searched differently).
 * Not claimed: the rest of that extra round (the resent conversation), nor anything when the
 * model searched for the tool first, never called it, or the run was cancelled.
 */

export interface SearchSaving {
  /** Pre-activated tools the model called before any search returned them, in call order. */
  tools: string[];
  /** Tokens of the one `select:` tool_search call + result those tools would have needed. */
  tokens: number;
}

/** Follows one run's calls; pure bookkeeping, no I/O. */
export class SearchSavingsLedger {
  private readonly preActivated: ReadonlySet<string>;
  private readonly found = new Set<string>();
  private readonly saved: string[] = [];

  constructor(preActivated: readonly string[]) {
    this.preActivated = new Set(preActivated);
  }

  /** A `tool_search` call returned these tools. */
  searched(found: readonly string[]): void {
    for (const name of found) this.found.add(name);
  }

  /** The model called this tool (any outcome: it needed the definition, not the result). */
  called(name: string): void {
    if (this.preActivated.has(name) && !this.found.has(name) && !this.saved.includes(name)) this.saved.push(name);
  }

  savedTools(): string[] {
    return [...this.saved];
  }
}

/** The text of the `tool_search` exchange counted for a saving: the call as the model writes it, then the result. */
export function searchExchangeText(query: string, resultText: string): string {
  return `${JSON.stringify({ name: TOOL_SEARCH_TOOL_NAME, input: { query } })}\n${resultText}`;
}
