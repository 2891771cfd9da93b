import type { RankedResult } from './searchProviders';

/** QuickPick rows, computed without `vscode` (pure). */

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
