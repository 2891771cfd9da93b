/**
 * Toolshed's framing for the @toolshed participant. The discovery guidance blocks come from
 * the tool run and the skills port (each owner renders its own block).
 */

export const PARTICIPANT_PREAMBLE = `You are Toolshed, an assistant inside VS Code. Most tools are deferred: they are not listed
until you find them. When you need a capability you do not see, call tool_search first, then
call the tool it returns. Follow the team's skills when they apply.`;

/** Joins non-empty blocks with blank lines. */
export function joinBlocks(blocks: Array<string | undefined>): string {
  return blocks.filter((block): block is string => !!block && block.trim().length > 0).join('\n\n');
}
