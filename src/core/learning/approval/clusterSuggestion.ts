import { clusterLabel } from '../../skills/skillClusters';
import { similarity, termVector } from '../merge/similarity';
import type { TermVector } from '../merge/similarity';

/**
 * The cluster a learned skill gets on approval, when the person
 * approving it did not choose one: the cluster of the most similar existing skill, by the same
 * similarity merge uses (weighted Jaccard over analysed trigger + step terms), or none when no
 * clustered skill is at least CLUSTER_SIMILARITY alike. Deterministic: ties go to the name that
 * sorts first.
 */

/**
 * Lower than the merge threshold on purpose: a sibling in a theme shares the purpose words
 * ("weather forecast") and some steps, not the whole procedure. Below this, a learned skill
 * stays unclustered rather than land in an unrelated theme.
 */
export const CLUSTER_SIMILARITY = 0.25;

export interface ClusterPeer {
  name: string;
  trigger: string;
  steps: readonly string[];
  /** `meta.cluster` as stored (only a non-empty string counts). */
  cluster: unknown;
}

export interface ClusterSuggestion {
  cluster: string;
  /** The skill it was taken from, and how alike the two are (0–1). */
  from: string;
  score: number;
}

/**
 * `vectorOf` lets a caller reuse the analysed terms of peers it has seen before (analysis is
 * most of the cost: ~0.5 s for 10,000 peers, a few ms once cached).
 */
export function suggestCluster<P extends ClusterPeer>(
  candidate: { trigger: string; steps: readonly string[] },
  peers: readonly P[],
  threshold = CLUSTER_SIMILARITY,
  vectorOf: (peer: P) => TermVector = (peer) => termVector(peer.trigger, peer.steps),
): ClusterSuggestion | undefined {
  const vector = termVector(candidate.trigger, candidate.steps);
  let best: ClusterSuggestion | undefined;
  for (const peer of peers) {
    const cluster = clusterLabel(peer.cluster);
    if (!cluster) continue;
    const score = similarity(vector, vectorOf(peer), threshold);
    if (score < threshold) continue;
    if (!best || score > best.score || (score === best.score && peer.name < best.from)) best = { cluster, from: peer.name, score };
  }
  return best;
}

/**
 * The cluster to store for an approved candidate: the person's choice when they made one
 * (`''` = explicitly none), else the suggestion.
 */
export function chosenCluster(candidate: { cluster?: string }, suggestion: () => ClusterSuggestion | undefined): string | undefined {
  if (candidate.cluster !== undefined) return clusterLabel(candidate.cluster);
  return suggestion()?.cluster;
}
