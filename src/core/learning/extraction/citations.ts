/**
 * Citations of a learned skill (Copilot Memory's rule: check when used, not only when saved):
 * the tools it names and the workspace files it mentions. A tool that is gone or denied, or a
 * file that no longer exists, makes the skill stale: left out of pre-flight, shown with the
 * reason, offered for review.
 */

type ToolAvailability = 'visible' | 'activatable' | 'denied' | 'unknown';

export interface CitationChecks {
  tool(name: string): ToolAvailability;
  /** Whether a workspace-relative file exists. */
  fileExists(relativePath: string): boolean;
}

export function staleReasons(citations: { tools: readonly string[]; files: readonly string[] }, checks: CitationChecks): string[] {
  const reasons: string[] = [];
  for (const tool of citations.tools) {
    const verdict = checks.tool(tool);
    // A denied tool is reported like a missing one: the reason must not reveal policy-hidden names.
    if (verdict === 'denied' || verdict === 'unknown') reasons.push(`a tool it uses is no longer available`);
  }
  for (const file of citations.files) if (!checks.fileExists(file)) reasons.push(`file ${file} no longer exists`);
  return [...new Set(reasons)];
}
