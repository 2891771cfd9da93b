import type { DeferredNamesListing } from '../../config/settingsSchema';
import { closeTag, openTag, renderPromptBlock } from '../../privacy/promptBlocks';

/**
 * The optional `<available_deferred_tools>` block: the names of deferred tools, grouped by
 * namespace, so the model knows what `tool_search` can load (Anthropic's and VS Code's
 * deferred-tool listing; Cursor lists names only). Bounded by a token cap, estimated at four
 * characters a token (the block is short; the bench counts it with a tokenizer). The caller
 * passes only tools the run may use, so denied and hidden names can never appear.
 */

export interface DeferredToolName {
  name: string;
  namespace: string;
  source?: string;
}

const OPEN = openTag('available_deferred_tools');
const CLOSE = closeTag('available_deferred_tools');
const INTRO = 'Deferred tools (not listed until loaded). Load one with tool_search, e.g. query "select:<name>":';

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function renderDeferredNamesBlock(tools: readonly DeferredToolName[], listing: DeferredNamesListing, maxTokens: number): string {
  if (listing === 'off' || tools.length === 0 || maxTokens <= 0) return '';
  const groups = new Map<string, { source?: string; names: string[] }>();
  for (const tool of tools) {
    const group = groups.get(tool.namespace) ?? { source: tool.source, names: [] };
    group.names.push(tool.name);
    groups.set(tool.namespace, group);
  }
  const namespaces = [...groups.keys()].sort();
  // Room for the frame and a trailer saying how many were left out.
  const trailerReserve = estimateTokens(`(+${tools.length} more; find them with tool_search)`) + 1;
  let budget = maxTokens - estimateTokens([OPEN, INTRO, CLOSE].join('\n')) - trailerReserve;
  if (budget <= 0) return '';
  const lines: string[] = [];
  let listed = 0;
  outer: for (const namespace of namespaces) {
    const group = groups.get(namespace)!;
    const label = listing === 'namesAndServers' && group.source ? `${namespace} (${group.source})` : namespace;
    const head = `${label}: `;
    const names = [...group.names].sort();
    let line = '';
    for (const name of names) {
      const piece = line ? `, ${name}` : `${head}${name}`;
      const cost = estimateTokens(piece) + (line ? 0 : 1);
      if (cost > budget) {
        if (line) lines.push(line);
        break outer;
      }
      budget -= cost;
      line += piece;
      listed++;
    }
    if (line) lines.push(line);
  }
  const left = tools.length - listed;
  if (listed === 0) return '';
  return renderPromptBlock('available_deferred_tools', [INTRO, ...lines, ...(left > 0 ? [`(+${left} more; find them with tool_search)`] : [])]);
}
