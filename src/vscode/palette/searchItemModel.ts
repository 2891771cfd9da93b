import type { RankedResult, ToolDetails } from './searchProviders';

/** QuickPick rows and the tool-details document, computed without `vscode` (pure). */

export interface SearchRowModel {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

export function searchRow(result: RankedResult, kind: 'skill' | 'tool'): SearchRowModel {
  const icon = kind === 'skill' ? '$(lightbulb)' : '$(tools)';
  const facts = [`score ${result.score.toFixed(2)}`, result.matchType];
  if (result.loadingMode) facts.push(result.loadingMode);
  const title = result.title && result.title !== result.name ? result.title : '';
  return {
    label: `${icon} ${result.name}`,
    description: [title, facts.join(' · ')].filter(Boolean).join(' — '),
    detail: (result.description ?? '').replace(/\s+/g, ' ').trim().slice(0, 200),
  };
}

/** The `#` reference a tool gets in the chat input. */
export function toolChatReference(result: Pick<RankedResult, 'name' | 'referenceName'>): string {
  return `#${result.referenceName ?? result.name} `;
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
