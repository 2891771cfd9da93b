/**
 * Ports behind the palette QuickPicks ("Search Skills…", "Search Tools…").
 * `serviceSearchProviders.ts` implements them over the core search services; tests use in-memory ones.
 */
import type { ToolDetailsProvider } from '../views/toolDetails';

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

export interface ToolSearchProvider extends SearchProvider, ToolDetailsProvider {}
