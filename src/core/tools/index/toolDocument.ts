import { TextAnalyzer, splitIdentifier } from '../../search/textAnalysis';
import type { ToolRecord } from '../toolRecord';

/**
 * What the index knows about a tool's text: analysed terms per field. The same analysis runs
 * on queries (textAnalysis.analyze), so both sides agree on terms.
 */
export const TOOL_FIELDS = ['name', 'tags', 'description', 'paramNames', 'paramDescriptions'] as const;
export type ToolField = (typeof TOOL_FIELDS)[number];
export type ToolFieldTerms = Record<ToolField, string[]>;

/**
 * BM25F term-frequency saturation for tools (lower = the first occurrence counts for more): the
 * index's term statistics are built with it, so the ranker's impact postings saturate as its
 * scoring does. Tuned on BFCL's even-hash half (tools/index/toolRanker.ts).
 */
export const TOOL_K1 = 0.6;

/** BM25F field weights and length normalisation of the ranker's defaults (tuned with TOOL_K1): what the index's impact postings are built with. */
export const TOOL_FIELD_WEIGHTS: Readonly<Record<ToolField, number>> = { name: 3, tags: 1.5, description: 1, paramNames: 0.8, paramDescriptions: 0.4 };
export const TOOL_FIELD_B: Readonly<Record<ToolField, number>> = { name: 0.7, tags: 0.5, description: 0.75, paramNames: 0.6, paramDescriptions: 0.3 };

/** Bounds the text analysed per tool so one huge description cannot dominate index time. */
const MAX_FIELD_CHARS = 4000;
const MAX_PARAMS = 60;
const ALL_DIGITS = /^[0-9]+$/;
const NON_ASCII = /[^\x00-\x7f]/;

/** `analyzer`: the index's own (its word memo spans every tool); a memo-less one by default. */
export function toolFieldTerms(
  record: Pick<ToolRecord, 'name' | 'tags' | 'description' | 'inputSchema'>,
  analyzer: TextAnalyzer = new TextAnalyzer(0),
): ToolFieldTerms {
  const analyze = (text: string) => analyzer.analyze(text);
  const paramNames: string[] = [];
  const paramDescriptions: string[] = [];
  collectParams(record.inputSchema, paramNames, paramDescriptions, 0);
  return {
    ...orderedTextTerms(record, analyzer),
    paramNames: analyze(paramNames.slice(0, MAX_PARAMS).join(' ')),
    paramDescriptions: analyze(paramDescriptions.slice(0, MAX_PARAMS).join(' ').slice(0, MAX_FIELD_CHARS)),
  };
}

/** The name, tags and description fields of a tool, analysed in text order (what the tool index's stored row can give again). */
export function orderedTextTerms(
  record: Pick<ToolRecord, 'name' | 'tags' | 'description'>,
  analyzer: TextAnalyzer,
): Pick<ToolFieldTerms, 'name' | 'tags' | 'description'> {
  const analyze = (text: string) => analyzer.analyze(text);
  return {
    // Digits in a tool name are versions or ordinals (`…_v2`, `Buses_3_…`); queries carry
    // numbers as argument values ("add 5 to 3"), which must not match them.
    name: analyze(record.name).filter((term) => !ALL_DIGITS.test(term)),
    tags: analyze(record.tags.join(' ')),
    description: analyze(record.description.slice(0, MAX_FIELD_CHARS)),
  };
}

function collectParams(schema: unknown, names: string[], descriptions: string[], depth: number): void {
  if (depth > 3 || !schema || typeof schema !== 'object') return;
  const properties = (schema as { properties?: unknown }).properties;
  if (properties && typeof properties === 'object') {
    for (const [key, value] of Object.entries(properties as Record<string, unknown>)) {
      if (names.length >= MAX_PARAMS) return;
      // `analyze` splits an ASCII identifier exactly as splitIdentifier does, so only other
      // keys are pre-split (kept for them: the pre-split drops what NFKD would have kept).
      names.push(NON_ASCII.test(key) ? splitIdentifier(key).join(' ') : key);
      if (value && typeof value === 'object') {
        const description = (value as { description?: unknown }).description;
        if (typeof description === 'string') descriptions.push(description);
        const enumValues = (value as { enum?: unknown }).enum;
        if (Array.isArray(enumValues))
          descriptions.push(
            enumValues
              .filter((v) => typeof v === 'string')
              .slice(0, 20)
              .join(' '),
          );
        // A string default names what the tool does unless told otherwise ("fahrenheit").
        const fallback = (value as { default?: unknown }).default;
        if (typeof fallback === 'string') descriptions.push(fallback);
        collectParams(value, names, descriptions, depth + 1);
        collectParams((value as { items?: unknown }).items, names, descriptions, depth + 1);
      }
    }
  }
}

/** Told about every document the in-memory mirror gains, replaces or drops (e.g. its vectors). */
export interface DocumentObserver {
  set(name: string): void;
  delete(name: string): void;
}
