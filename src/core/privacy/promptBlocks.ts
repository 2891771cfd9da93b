/**
 * Toolshed's prompt blocks (`<skill_warnings>`, `<skill_directory>`, …): every tag Toolshed
 * frames prompt text with lives here, and every block is rendered through `renderPromptBlock`.
 * What a block embeds — skill text, learned lessons built from tool errors, tool and server
 * names, a model's summary — is data: a tag of ours inside it is neutralised (its `<` becomes
 * `‹`), so embedded text can never close the block it sits in or open another one.
 */

export const PROMPT_BLOCK_TAGS = [
  'available_deferred_tools',
  'pinned_skills',
  'request',
  'skill',
  'skill_directory',
  'skill_discovery',
  'skill_staleness',
  'skill_tool',
  'skill_warnings',
  'skills',
  'tool_discovery',
] as const;

export type PromptBlockTag = (typeof PROMPT_BLOCK_TAGS)[number];

/**
 * `<tag`, `</tag`, `< / tag` of any of our tags, in any case, followed by anything but a name
 * character (`<skills_x>` is not ours). Linear: one bounded alternation per `<`.
 */
const BLOCK_TAG = new RegExp(`<(?=\\s{0,8}/?\\s{0,8}(?:${PROMPT_BLOCK_TAGS.join('|')})(?![A-Za-z0-9_-]))`, 'gi');

/** The text with every opening or closing tag of a Toolshed block made inert (`‹/skill_warnings>`). */
export function neutralizeBlockTags(text: string): string {
  return text.replace(BLOCK_TAG, '‹');
}

export function openTag(tag: PromptBlockTag): string {
  return `<${tag}>`;
}

export function closeTag(tag: PromptBlockTag): string {
  return `</${tag}>`;
}

/** One block: the tag's line, the (neutralised) lines, the closing tag's line. */
export function renderPromptBlock(tag: PromptBlockTag, lines: readonly string[]): string {
  return [openTag(tag), ...lines.map(neutralizeBlockTags), closeTag(tag)].join('\n');
}
