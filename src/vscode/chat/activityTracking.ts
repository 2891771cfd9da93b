import type * as vscode from 'vscode';
import { AGENT_MODE_SESSION, type ToolshedServices } from '../services';

/**
 * Feeds the Activated Tools view from the core's `tool_activated` events, so every path that
 * activates a tool in a @toolshed conversation is shown the same way. Agent mode's searches are
 * left out: its tool list never changes, so there `tool_invoke` records what actually ran.
 */
export function trackActivations(services: Pick<ToolshedServices, 'onEvent' | 'activity'>): vscode.Disposable {
  return services.onEvent((event) => {
    if (event.type !== 'tool_activated') return;
    const payload = event.payload as { tool_name?: string; session_id?: string; activation_scope?: string; source?: string; reason?: string };
    if (!payload.tool_name || !payload.session_id || payload.session_id === AGENT_MODE_SESSION) return;
    services.activity.recordActivation({
      toolName: payload.tool_name,
      sessionId: payload.session_id,
      sessionLabel: services.activity.sessionLabel(payload.session_id),
      scope: payload.activation_scope === 'session' ? 'session' : 'run',
      source: payload.source === 'first_use' ? 'call' : 'search',
      reason: payload.reason ?? '',
      at: Date.now(),
    });
  });
}
