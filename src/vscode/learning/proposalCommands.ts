import * as path from 'node:path';
import * as vscode from 'vscode';
import { proposalToSkillMarkdown, skillMarkdownToCandidate } from '../../core/learning/approval/proposalDocument';
import { describeAdditions } from '../../core/learning/merge/mergeReview';
import type { MergeReview } from '../../core/learning/merge/mergeReview';
import type { ApproveResolution } from '../../core/learning/approval/proposalApproval';
import type { LearningController } from './learningController';

/**
 * Approve / Edit / Discard for proposals (Skill Directory items, chat buttons, `/learn`).
 * Approving a name that exists asks; a pack skill is never overwritten (only "save under another
 * name" is offered). Edit opens the proposal as a `*.skill.md` document in workspace storage;
 * saving it updates the proposal, which stays a proposal until approved. A model-written
 * proposal that would merge into an existing learned skill is first shown as a merge proposal:
 * a diff of the skill before/after, with Approve Merge / Edit Proposal / Keep Separate / Discard.
 * Writes go through `controller.writes`, whose change event updates the views.
 */
export function registerProposalCommands(context: vscode.ExtensionContext, controller: Pick<LearningController, 'service' | 'writes'>): void {
  const folder = path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'proposals');
  const idOf = (arg: unknown): string | undefined => {
    if (typeof arg === 'string') return arg;
    const node = arg as { node?: { proposal?: { id?: string } } } | undefined;
    return node?.node?.proposal?.id;
  };

  /** Opens the merge as a diff (the skill now vs. after the merge) and offers the choices, without waiting for one. */
  const reviewMerge = async (id: string, review: MergeReview): Promise<void> => {
    const before = vscode.Uri.file(path.join(folder, `${id}.merge-before.md`));
    const after = vscode.Uri.file(path.join(folder, `${id}.merge-after.md`));
    await vscode.workspace.fs.writeFile(before, new TextEncoder().encode(review.before));
    await vscode.workspace.fs.writeFile(after, new TextEncoder().encode(review.after));
    await vscode.commands.executeCommand('vscode.diff', before, after, `Merge into ${review.target} (review): ${describeAdditions(review.added)}`, {
      preview: false,
    });
    const title = controller.service.proposal(id)?.candidate.title ?? id;
    void vscode.window
      .showInformationMessage(
        `Toolshed: a model wrote "${title}"; approving it would merge it into the learned skill "${review.target}" (${review.identical ? 'identical' : `${Math.round(review.score * 100)}% similar`}; ${describeAdditions(review.added)}). Review the diff first.`,
        'Approve Merge',
        'Edit Proposal',
        'Keep Separate',
        'Discard',
      )
      .then(async (choice) => {
        if (choice === 'Approve Merge') await approve(id, { confirmMerge: true });
        if (choice === 'Edit Proposal') await edit(id);
        if (choice === 'Keep Separate') await approve(id, { noMerge: true });
        if (choice === 'Discard') await discard(id);
      });
  };

  const approve = async (arg: unknown, resolution?: ApproveResolution): Promise<string | undefined> => {
    const id = idOf(arg);
    if (!id) return undefined;
    // How it was approved, for the skill's own text: a Skill Directory item passes its node, chat's button says `via: chat`.
    const via = resolution?.via ?? (typeof arg === 'string' ? undefined : 'skillDirectory');
    let result = await controller.writes.approve(id, { ...resolution, ...(via ? { via } : {}) });
    if (result.status === 'review') {
      await reviewMerge(id, result.review);
      return undefined;
    }
    if (result.status === 'conflict') {
      const rename = `Save as ${result.suggestion}`;
      const choices = result.existing === 'learned' ? ['Replace', rename] : [rename];
      const choice = await vscode.window.showWarningMessage(
        result.existing === 'pack'
          ? `A pack skill is already named "${result.name}". Toolshed never overwrites pack skills.`
          : `A learned skill is already named "${result.name}".`,
        { modal: true },
        ...choices,
      );
      if (!choice) return undefined;
      result = await controller.writes.approve(id, {
        ...(choice === 'Replace' ? { replaceLearned: true } : { name: result.suggestion }),
        ...(via ? { via } : {}),
      });
    }
    if (result.status === 'missing') {
      void vscode.window.showWarningMessage('Toolshed: that proposal no longer exists (approved or discarded already).');
      return undefined;
    }
    if (result.status === 'merged') {
      const sourceHash = controller.service.proposal(id)?.candidate.source_hash ?? '';
      // Not awaited: the command returns at once; the offer to undo stays in the notification.
      void vscode.window
        .showInformationMessage(
          `Toolshed: merged into the learned skill "${result.name}" (${result.identical ? 'identical' : `${Math.round(result.score * 100)}% similar`}); its lineage keeps what each merge brought.`,
          'Undo Merge',
        )
        .then(async (choice) => {
          if (choice !== 'Undo Merge') return;
          await controller.writes.unmerge(result.name, sourceHash);
        });
      return result.name;
    }
    if (result.status !== 'approved') return undefined;
    vscode.window.setStatusBarMessage(`Toolshed: learned "${result.name}"${result.cluster ? ` (cluster ${result.cluster})` : ''}`, 4000);
    return result.name;
  };

  const edit = async (arg: unknown): Promise<vscode.TextEditor | undefined> => {
    const id = idOf(arg);
    const proposal = id ? controller.service.proposal(id) : undefined;
    if (!proposal) return undefined;
    const uri = vscode.Uri.file(path.join(folder, `${proposal.id}.skill.md`));
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode(proposalToSkillMarkdown(proposal.candidate, controller.service.suggestedCluster(proposal.candidate))),
    );
    return vscode.window.showTextDocument(uri, { preview: false });
  };

  const discard = async (arg: unknown): Promise<boolean> => {
    const id = idOf(arg);
    if (!id) return false;
    const done = await controller.writes.discard(id);
    return done;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('toolshed.learning.approveProposal', approve),
    vscode.commands.registerCommand('toolshed.learning.editProposal', edit),
    vscode.commands.registerCommand('toolshed.learning.discardProposal', discard),
    vscode.workspace.onDidSaveTextDocument(async (document) => {
      if (path.dirname(document.uri.fsPath) !== folder || !document.uri.fsPath.endsWith('.skill.md')) return;
      const id = path.basename(document.uri.fsPath, '.skill.md');
      const proposal = controller.service.proposal(id);
      if (!proposal || proposal.status !== 'proposed') return;
      const parsed = skillMarkdownToCandidate(document.getText(), document.uri.fsPath, proposal.candidate);
      if ('error' in parsed) {
        void vscode.window.showErrorMessage(`Toolshed: the proposal was not updated — ${parsed.error}. Fix it and save again.`);
        return;
      }
      await controller.writes.edit(id, parsed.candidate);
      const choice = await vscode.window.showInformationMessage(`Toolshed: proposal "${parsed.candidate.title}" updated.`, 'Approve', 'Discard');
      if (choice === 'Approve') await approve(id, { via: 'editor' });
      if (choice === 'Discard') await discard(id);
    }),
  );
}
