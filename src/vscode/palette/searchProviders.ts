/**
 * Ports behind the palette QuickPicks ("Search Skills…", "Search Tools…") and the tool-details
 * document. The glue over the core search services implements them; tests use in-memory ones.
 */

export interface RankedResult {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** Higher is better; shown with two decimals. */
  readonly score: number;
  /** How it matched, e.g. `bm25`, `exact`, `regex`, `fts`, `prefix`. */
  readonly matchType: string;
  /** Tools: `always` or `deferred`; skills: their status. */
  readonly loadingMode?: string;
  /** Where it is defined (skills). */
  readonly sourceFile?: string;
  readonly sourceLine?: number;
  /** What a `#` reference to it is called in chat (tools: `toolReferenceName`). */
  readonly referenceName?: string;
}

export interface SearchProvider {
  /** Ranked best first; an empty query lists a sensible default (e.g. everything, by name). */
  search(query: string, limit: number): Promise<readonly RankedResult[]>;
}

export interface ToolDetails {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: unknown;
  readonly examples?: ReadonlyArray<{ readonly args: unknown; readonly description?: string }>;
  readonly loadingMode?: string;
  readonly namespace?: string;
  readonly sideEffects?: string;
  readonly source?: string;
  readonly tags?: readonly string[];
}

export interface ToolDetailsProvider {
  details(name: string): Promise<ToolDetails | undefined>;
}

export interface ToolSearchProvider extends SearchProvider, ToolDetailsProvider {}
