import * as vscode from 'vscode';
import type { Proposal } from '../../core/learning/learningStore';
import type { ToolshedServices } from '../services';
import type { ToolshedTurnMetadata } from './sessionMetadata';
import type { TurnSession } from './turnSession';
import type { LearningController } from '../learning/learningController';
import type { LearningTurnMetadata } from './learningTurn';

export const LEARN_COMMAND = 'learn';
export const SAVE_AS_SKILL_LABEL = 'Save this as a skill…';

/** The "Save this as a skill…" follow-up, once the turn's background extraction proposed one. */
export async function learningFollowups(controller: LearningController, metadata: ToolshedTurnMetadata | undefined): Promise<vscode.ChatFollowup[]> {
  if (!metadata?.learning || !controller.enabled || metadata.command) return [];
  const result = await controller.latestResult(metadata.sessionId);
  return result.proposal?.status === 'proposed' ? [{ prompt: '', command: LEARN_COMMAND, label: SAVE_AS_SKILL_LABEL }] : [];
}

/** Toolshed's own rating buttons under an answer (VS Code may hide its 👍/👎). */
const RATE_ANSWER_COMMAND = 'toolshed.learning.rateAnswer';

interface AnswerRating {
  turnId?: string;
  skills: string[];
  outcome: 'helpful' | 'harmful';
}

/** 👍/👎 on an @toolshed answer: +1 helpful/harmful for the skills that turn injected or fetched. */
export async function recordChatFeedback(controller: LearningController, feedback: vscode.ChatResultFeedback): Promise<number> {
  const metadata = feedback.result.metadata?.toolshed as ToolshedTurnMetadata | undefined;
  const outcome = feedback.kind === vscode.ChatResultFeedbackKind.Helpful ? 'helpful' : 'harmful';
  return rateAnswer(controller, { turnId: metadata?.learning?.turnId, skills: metadata?.learning?.skills ?? [], outcome });
}

/** One rating per answer, from VS Code's 👍/👎 or from Toolshed's buttons, whichever comes first. */
async function rateAnswer(controller: LearningController, rating: AnswerRating): Promise<number> {
  if (!controller.enabled || rating.skills.length === 0) return 0;
  if (rating.turnId && !controller.claimRating(rating.turnId)) return 0;
  return controller.writes.recordOutcome(rating.skills, rating.outcome);
}

/**
 * "Helpful" / "Not helpful" under an answer that used skills: VS Code shows its 👍/👎 only where
 * its telemetry allows, so this is the way to rate that always works (the same counters).
 */
export function offerAnswerRating(stream: vscode.ChatResponseStream, controller: LearningController, learning: LearningTurnMetadata): void {
  if (!controller.enabled || learning.skills.length === 0) return;
  const rating = (outcome: AnswerRating['outcome']): AnswerRating => ({ turnId: learning.turnId, skills: learning.skills, outcome });
  stream.markdown(
    `\n\nDid ${learning.skills.length === 1 ? `the skill \`${learning.skills[0]}\`` : `the skills ${learning.skills.map((s) => `\`${s}\``).join(', ')}`} help?\n`,
  );
  stream.button({ command: RATE_ANSWER_COMMAND, title: 'Helpful', arguments: [rating('helpful')] });
  stream.button({ command: RATE_ANSWER_COMMAND, title: 'Not helpful', arguments: [rating('harmful')] });
}

/** The command behind the buttons; says what it counted (or that the answer was rated already). */
export function registerAnswerRating(context: vscode.ExtensionContext, controller: LearningController): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(RATE_ANSWER_COMMAND, async (rating?: AnswerRating) => {
      if (!rating || !Array.isArray(rating.skills) || (rating.outcome !== 'helpful' && rating.outcome !== 'harmful')) return 0;
      const skills = rating.skills.filter((name): name is string => typeof name === 'string');
      const counted = await rateAnswer(controller, { ...rating, skills });
      vscode.window.setStatusBarMessage(
        counted > 0
          ? `Toolshed: counted as ${rating.outcome === 'helpful' ? 'helpful' : 'not helpful'} for ${skills.join(', ')}`
          : 'Toolshed: this answer was rated already',
        4000,
      );
      return counted;
    }),
  );
}

/**
 * `/learn [title]`: proposes a skill from this conversation's last turn (even one the automatic
 * rule skipped) and shows it with Approve / Edit / Discard.
 */
export async function learnCommand(
  prompt: string,
  stream: vscode.ChatResponseStream,
  services: Pick<ToolshedServices, 'learning'>,
  session: TurnSession,
): Promise<vscode.ChatResult> {
  const result = { metadata: { toolshed: session.metadataBase() } };
  const controller = services.learning;
  if (!controller.enabled) {
    stream.markdown(
      vscode.workspace.isTrusted
        ? 'Learning is off. Turn it on with the setting `toolshed.learning.mode: "propose"`; proposals are only used after you approve them.'
        : 'Learning is off in Restricted Mode. Trust this workspace to let Toolshed propose skills.',
    );
    return result;
  }
  const last = controller.lastTurn(session.sessionId);
  if (!last || last.calls.length === 0) {
    stream.markdown('Nothing to learn from yet in this conversation: ask `@toolshed` something that uses tools, then run `/learn`.');
    return result;
  }
  const pending = await controller.latestResult(session.sessionId);
  let proposal = pending.proposal ?? (await controller.writes.ingest(last, { force: true, origin: 'learn' })).proposal;
  if (!proposal) {
    stream.markdown('That turn made no successful tool call, so there is no procedure to learn from it.');
    return result;
  }
  const title = prompt.trim();
  if (title && proposal.status === 'proposed') {
    await controller.writes.edit(proposal.id, { ...proposal.candidate, title: title.slice(0, 200) });
    proposal = controller.service.proposal(proposal.id) ?? proposal;
  }
  renderProposal(stream, proposal);
  return result;
}

function renderProposal(stream: vscode.ChatResponseStream, proposal: Proposal): void {
  const c = proposal.candidate;
  const state = proposal.status === 'proposed' ? 'Proposed skill' : proposal.status === 'approved' ? 'Already approved' : 'Discarded earlier';
  stream.markdown(`**${state}:** ${c.title} (\`${c.name}\`)\n\n*When:* ${c.trigger}\n\n${c.steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n`);
  if (c.failure_modes.length) stream.markdown(`\n*Watch out:*\n${c.failure_modes.map((f) => `- ${f}`).join('\n')}\n`);
  if (proposal.status !== 'proposed') return;
  stream.markdown('\nIt is used only after you approve it.\n');
  stream.button({ command: 'toolshed.learning.approveProposal', title: 'Approve', arguments: [proposal.id, { via: 'chat' }] });
  stream.button({ command: 'toolshed.learning.editProposal', title: 'Edit…', arguments: [proposal.id] });
  stream.button({ command: 'toolshed.learning.discardProposal', title: 'Discard', arguments: [proposal.id] });
}
