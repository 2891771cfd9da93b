import type { TokenCounter } from '../platform/ports';
import type { ToolDefinition } from '../platform/chatTypes';

export type { ToolDefinition } from '../platform/chatTypes';

/** The text a tool definition costs in a request (the JSON a model API receives). */
export function toolDefinitionText(definition: ToolDefinition): string {
  return JSON.stringify({ name: definition.name, description: definition.description, parameters: definition.inputSchema ?? {} });
}

async function countDefinitionTokens(counter: TokenCounter, definitions: readonly ToolDefinition[], blocks: readonly string[] = []): Promise<number> {
  let total = 0;
  for (const definition of definitions) total += await counter.count(toolDefinitionText(definition));
  for (const block of blocks) total += await counter.count(block);
  return total;
}

export interface TokenReport {
  /** Tokens of what this run sends: visible tools + prompt blocks. */
  sentTokens: number;
  /** Tokens if every tool the run may use were sent (no deferral, no blocks). */
  allToolsTokens: number;
  visibleTools: number;
  allTools: number;
  /** 1 − sent / all (0 when nothing to compare). */
  reduction: number;
}

export async function tokenReport(
  counter: TokenCounter,
  visible: readonly ToolDefinition[],
  all: readonly ToolDefinition[],
  blocks: readonly string[] = [],
): Promise<TokenReport> {
  const sentTokens = await countDefinitionTokens(counter, visible, blocks);
  const allToolsTokens = await countDefinitionTokens(counter, all);
  return {
    sentTokens,
    allToolsTokens,
    visibleTools: visible.length,
    allTools: all.length,
    reduction: allToolsTokens > 0 ? 1 - sentTokens / allToolsTokens : 0,
  };
}
