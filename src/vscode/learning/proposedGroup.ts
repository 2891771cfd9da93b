import * as vscode from 'vscode';
import type { Proposal } from '../../core/learning/learningStore';
import type { DirectoryGroup } from '../views/directoryGroup';
import type { LearningController } from './learningController';
import { taskTypeLabel } from '../../core/learning/extraction/learnedCandidate';

type Node = { kind: 'proposed' } | { kind: 'warnings' } | { kind: 'proposal'; proposal: Proposal };

/**
 * Learning's part of the Skill Directory: a **Proposed** group (Approve / Edit / Discard on each
 * item), a **Learned warnings** group for approved negative skills, and 👍/👎 counts after each
 * skill's description. Nothing shows while learning is off. It has no change event of its own:
 * what it shows changes with the skill change event, which the Skill Directory already follows.
 */
export function proposedSkillsGroup(controller: Pick<LearningController, 'enabled' | 'service'>): DirectoryGroup<Node> {
  return {
    roots() {
      if (!controller.enabled) return [];
      const roots: Node[] = [];
      if (controller.service.proposals().length) roots.push({ kind: 'proposed' });
      if (controller.service.approvedLessons().some((p) => p.candidate.kind === 'negative')) roots.push({ kind: 'warnings' });
      return roots;
    },
    children(node) {
      if (node.kind === 'proposed') return controller.service.proposals().map((proposal) => ({ kind: 'proposal' as const, proposal }));
      if (node.kind === 'warnings')
        return controller.service
          .approvedLessons()
          .filter((p) => p.candidate.kind === 'negative')
          .map((proposal) => ({ kind: 'proposal' as const, proposal }));
      return [];
    },
    treeItem(node) {
      if (node.kind !== 'proposal') {
        const proposed = node.kind === 'proposed';
        const count = proposed
          ? controller.service.proposals().length
          : controller.service.approvedLessons().filter((p) => p.candidate.kind === 'negative').length;
        const item = new vscode.TreeItem(proposed ? 'Proposed' : 'Learned warnings', vscode.TreeItemCollapsibleState.Expanded);
        item.id = `learning:${node.kind}`;
        item.description = proposed ? `${count} to review` : `${count} approved`;
        item.iconPath = new vscode.ThemeIcon(proposed ? 'lightbulb-sparkle' : 'warning');
        item.contextValue = proposed ? 'proposedGroup' : 'warningsGroup';
        item.tooltip = proposed
          ? 'Skills Toolshed learned from your conversations. None is used before you approve it.'
          : 'Approved lessons from repeated failures, shown to the model as <skill_warnings> for related requests.';
        return item;
      }
      const { proposal } = node;
      const c = proposal.candidate;
      const item = new vscode.TreeItem(c.title, vscode.TreeItemCollapsibleState.None);
      item.id = `proposal:${proposal.id}`;
      // A model-written proposal that duplicates a learned skill is a merge proposal: approving it shows the diff first.
      const mergeInto =
        proposal.status === 'proposed' && c.kind === 'positive' && proposal.origin === 'model' ? controller.service.mergeTarget(c)?.name : undefined;
      item.description = [
        c.kind === 'negative' ? 'warning' : taskTypeLabel(c.task_type),
        proposal.count > 1 ? `seen ${proposal.count}×` : '',
        c.name,
        mergeInto ? `merges into ${mergeInto} (review)` : '',
      ]
        .filter(Boolean)
        .join(' · ');
      const markdown = new vscode.MarkdownString();
      markdown.appendMarkdown(`**${c.title}** (${proposal.status})\n\n`);
      markdown.appendText(`When: ${c.trigger}\n\n`);
      c.steps.forEach((step, i) => markdown.appendText(`${i + 1}. ${step}\n`));
      if (mergeInto)
        markdown.appendText(
          `\nA model wrote this text and it duplicates the learned skill "${mergeInto}": Approve shows the merge as a diff to approve, edit or reject.\n`,
        );
      item.tooltip = markdown;
      item.iconPath = new vscode.ThemeIcon(c.kind === 'negative' ? 'warning' : 'lightbulb');
      item.contextValue = proposal.status === 'proposed' ? 'proposal' : 'learnedWarning';
      item.command = { command: 'toolshed.learning.editProposal', title: 'Edit Proposed Skill', arguments: [proposal.id] };
      return item;
    },
    skillSuffix(name) {
      if (!controller.enabled) return undefined;
      const counters = controller.service.counters(name);
      const stale = controller.service.staleReason(name);
      const parts = [
        counters && counters.helpful + counters.harmful > 0 ? `👍 ${counters.helpful} 👎 ${counters.harmful}` : '',
        stale ? `⚠ stale (${stale}): review it` : '',
      ].filter(Boolean);
      return parts.length ? parts.join(' · ') : undefined;
    },
  };
}
