/**
 * A tool's details and the "Show Tool Details" document (pure, no `vscode`): shown from the
 * Activated Tools view and from the palette's tool search.
 */

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

/** Markdown document for "Show Tool Details". */
export function toolDetailsMarkdown(details: ToolDetails): string {
  const lines = [`# ${details.name}`, ''];
  const facts: string[] = [];
  if (details.namespace) facts.push(`namespace \`${details.namespace}\``);
  if (details.loadingMode) facts.push(`loading \`${details.loadingMode}\``);
  if (details.sideEffects) facts.push(`side effects \`${details.sideEffects}\``);
  if (details.source) facts.push(`from \`${details.source}\``);
  if (facts.length) lines.push(facts.join(' · '), '');
  if (details.tags?.length) lines.push(`Tags: ${details.tags.map((t) => `\`${t}\``).join(' ')}`, '');
  lines.push('## Description', '', details.description || '_(no description)_', '');
  lines.push('## Input schema', '', '```json', JSON.stringify(details.inputSchema ?? {}, null, 2), '```', '');
  if (details.examples?.length) {
    lines.push('## Examples', '');
    for (const example of details.examples) {
      if (example.description) lines.push(`- ${example.description}`, '');
      lines.push('```json', JSON.stringify(example.args, null, 2), '```', '');
    }
  }
  return lines.join('\n');
}
