import { stringify } from 'yaml';
import { parseSkillDocument } from '../../skills/packs/document/skillDocumentParser';
import { clusterLabel } from '../../skills/skillClusters';
import type { ClusterSuggestion } from './clusterSuggestion';
import type { LearnedCandidate } from '../extraction/learnedCandidate';

/**
 * A proposal as an editable `*.skill.md` document (Edit in the Skill Directory): the usual skill
 * frontmatter, so the editor's skill diagnostics and completions apply; reading it back goes
 * through the same parser as pack files.
 *
 * `cluster` is the approval choice: the candidate's own, else `suggested` (the
 * most similar clustered skill's) written in so the person sees and can change or delete it.
 * Whatever the saved document says is the choice — no `cluster:` line means none.
 */
export function proposalToSkillMarkdown(candidate: LearnedCandidate, suggested?: ClusterSuggestion): string {
  const cluster = candidate.cluster !== undefined ? clusterLabel(candidate.cluster) : suggested?.cluster;
  const frontmatter = {
    name: candidate.name,
    title: candidate.title,
    task_type: candidate.task_type,
    tags: candidate.tags,
    ...(candidate.kind === 'positive' && cluster ? { cluster } : {}),
    trigger: candidate.trigger,
    steps: candidate.steps,
    ...(candidate.failure_modes.length ? { failure_modes: candidate.failure_modes } : {}),
  };
  const kind = candidate.kind === 'negative' ? 'a warning (negative skill) learned from repeated failures' : 'a skill learned from an @toolshed conversation';
  const clusterNote =
    candidate.kind === 'positive' && candidate.cluster === undefined && suggested
      ? `\n<!-- cluster: taken from the most similar skill, ${suggested.from} (${Math.round(suggested.score * 100)}% alike); change it, or delete the line for none. -->\n`
      : '';
  return `---\n${stringify(frontmatter, { lineWidth: 0 }).trimEnd()}\n---\n\n<!-- Proposed by Toolshed: ${kind}. Edit, save, then approve it (or discard it) in the Skill Directory. -->\n${clusterNote}`;
}

/** The edited fields, or the first error a person must fix. */
export function skillMarkdownToCandidate(text: string, fileName: string, original: LearnedCandidate): { candidate: LearnedCandidate } | { error: string } {
  const parsed = parseSkillDocument(text, fileName, { format: 'md' });
  const error = parsed.problems.find((p) => p.severity === 'error');
  if (error) return { error: `line ${error.line}: ${error.message}` };
  const skill = parsed.skills[0];
  if (!skill) return { error: 'no skill found in the document' };
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(skill.name)) return { error: `invalid name "${skill.name}"` };
  return {
    candidate: {
      ...original,
      name: skill.name,
      title: skill.title || original.title,
      trigger: skill.trigger,
      task_type: skill.task_type,
      tags: skill.tags,
      steps: skill.steps,
      failure_modes: skill.failure_modes,
      ...(original.kind === 'positive' ? { cluster: clusterLabel(skill.meta.cluster) ?? '' } : {}),
    },
  };
}
