import { renderPromptBlock } from '../privacy/promptBlocks';

/**
 * Model-facing text helpers: the "no such tool" error (identical whether a tool exists, is
 * denied, or is hidden) and scrubbing of tool names the run may not see.
 */

export const NO_SUCH_TOOL_MESSAGE =
  'No such tool is available in this conversation. Use tool_search to find a tool for what you need, then call it by the name it returns.';

const REDACTED_TOOL = '[unavailable tool]';

/** The tool discovery guidance block. */
export const TOOL_DISCOVERY_BLOCK = renderPromptBlock('tool_discovery', [
  'You can discover additional tools using `tool_search`.',
  '- Describe the capability you need.',
  '- Use the returned tool name to call it.',
  'Only tools permitted for this request will appear.',
]);

/**
 * Replaces every identifier-like token that names a tool the run must not see.
 * `isHidden(token)` decides; tokens are runs of letters, digits, `_`, `.`, `-` (a trailing
 * `.` or `-` is also tried without, so "use foo.bar." still matches "foo.bar").
 */
export function redactToolNames(text: string, isHidden: (name: string) => boolean): string {
  return text.replace(/[A-Za-z0-9_][A-Za-z0-9_.\-]*/g, (token) => {
    if (isHidden(token)) return REDACTED_TOOL;
    const trimmed = token.replace(/[.\-]+$/, '');
    if (trimmed !== token && trimmed.length > 0 && isHidden(trimmed)) return REDACTED_TOOL + token.slice(trimmed.length);
    return token;
  });
}

export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
