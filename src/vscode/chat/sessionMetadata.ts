import * as vscode from 'vscode';
import type { ChatMessage } from '../../core/platform/chatTypes';
import type { RoundRecord, TokenReport } from '../../core/planner/plannerLoop';
import { withoutFooter } from '../../core/planner/responseFooter';
import type { DeferralDecision } from '../../core/tools/modes/deferralDecision';
import type { LearningTurnMetadata } from './learningTurn';

export const PARTICIPANT_ID = 'toolshed.agent';

/**
 * What one @toolshed turn leaves in `ChatResult.metadata.toolshed`. VS Code keeps it with the
 * conversation, so the next turn of the same chat reads its session id, session-scoped
 * activations and pinned skills back from history — nothing global, nothing lost on reload.
 */
export interface ToolshedTurnMetadata {
  sessionId: string;
  /** First prompt of the conversation (labels the session in the Activated Tools view). */
  sessionLabel: string;
  recordedAt: number;
  /** Session-scoped activations (a tool-search SessionSnapshot), when activationScope is `session`. */
  activations?: unknown;
  pinnedSkills: string[];
  /** Skills active in this turn and why (`pinned`, `chosen by the model`, `best match`). */
  activeSkills?: Array<{ name: string; reason?: string }>;
  command?: string;
  tokens?: TokenReport;
  rounds?: RoundRecord[];
  stoppedBecause?: string;
  /** The model's answer text alone (no footer, no progress): what later turns send back as history. */
  answer?: string;
  /** Whether this turn sent every tool or deferred them, with the numbers (toolshed.toolSearch.mode). */
  deferral?: DeferralDecision;
  /** Skills the turn used, rated by 👍/👎 (present when learning is on). */
  learning?: LearningTurnMetadata;
}

/** The newest @toolshed turn's metadata in this conversation, if any. */
export function previousTurnMetadata(context: vscode.ChatContext): ToolshedTurnMetadata | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === PARTICIPANT_ID) {
      const metadata = turn.result.metadata?.toolshed as ToolshedTurnMetadata | undefined;
      if (metadata && typeof metadata.sessionId === 'string') return metadata;
    }
  }
  return undefined;
}

/** Earlier @toolshed turns as plain text messages for the model (commands are skipped). */
export function historyMessages(context: vscode.ChatContext): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const turn of context.history) {
    if (turn.participant !== PARTICIPANT_ID) continue;
    if (turn instanceof vscode.ChatRequestTurn) {
      if (turn.command) continue;
      messages.push({ role: 'user', parts: [{ kind: 'text', text: turn.prompt }] });
    } else if (turn instanceof vscode.ChatResponseTurn) {
      if (turn.command) continue;
      // Only the answer goes back to the model: the footer and status lines would cost tokens
      // on every later turn. Turns recorded before `answer` existed are cleaned of the footer.
      const metadata = turn.result.metadata?.toolshed as ToolshedTurnMetadata | undefined;
      const text = (
        typeof metadata?.answer === 'string'
          ? metadata.answer
          : withoutFooter(turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join(''))
      ).trim();
      if (text) messages.push({ role: 'assistant', parts: [{ kind: 'text', text }] });
    }
  }
  return messages;
}
