import type { ActivationEntry } from '../state/activityRegistry';

/** What the Activated Tools view shows, computed without `vscode` (unit-tested in plain Node). */

export interface SessionGroup {
  readonly sessionId: string;
  readonly label: string;
  readonly entries: readonly ActivationEntry[];
}

export interface NodeModel {
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly icon: string;
  readonly contextValue: string;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `12:04:31` for today, else an ISO date and time (no locale surprises in tests). */
function formatTime(at: number, now: number = Date.now()): string {
  const date = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const sameDay = new Date(now).toDateString() === date.toDateString();
  return sameDay ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

function truncate(text: string, max = 60): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > max ? `${single.slice(0, max - 1)}…` : single;
}

export function sessionNode(group: SessionGroup): NodeModel {
  const calls = group.entries.reduce((sum, e) => sum + e.calls, 0);
  return {
    label: truncate(group.label || group.sessionId, 50),
    description: `${plural(group.entries.length, 'tool')}, ${plural(calls, 'call')}`,
    tooltip: `Chat session \`${group.sessionId}\`\n\n${plural(group.entries.length, 'activated tool')}, ${plural(calls, 'call')}`,
    icon: 'comment-discussion',
    contextValue: 'toolSession',
  };
}

export function activationNode(entry: ActivationEntry, now: number = Date.now()): NodeModel {
  const how = entry.source === 'search' ? `found by "${truncate(entry.reason, 40)}"` : `called (${truncate(entry.reason, 40)})`;
  return {
    label: entry.toolName,
    description: `${how} · ${entry.scope} · ${formatTime(entry.at, now)} · ${plural(entry.calls, 'call')}`,
    tooltip: [
      `**${entry.toolName}**`,
      `Activated ${entry.source === 'search' ? 'by `tool_search`' : 'on first use'} at ${formatTime(entry.at, now)}`,
      `${entry.source === 'search' ? 'Query' : 'Call'}: ${entry.reason}`,
      `Scope: \`${entry.scope}\` (${entry.scope === 'run' ? 'this request only' : 'the rest of this chat'})`,
      `Calls since activation: ${entry.calls}`,
    ].join('\n\n'),
    icon: entry.source === 'search' ? 'search' : 'zap',
    contextValue: 'activatedTool',
  };
}

/** The view's description: activated count and the deferred catalog size. */
export function activatedSummary(entries: readonly ActivationEntry[], deferredCatalogSize: number): { count: number; description: string } {
  const tools = new Set(entries.map((e) => e.toolName)).size;
  return { count: entries.length, description: `${plural(tools, 'activated tool')} · ${deferredCatalogSize} deferred` };
}
