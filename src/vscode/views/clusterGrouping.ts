import { groupByCluster } from '../../core/skills/skillClusters';
import type { PackView } from './skillDirectorySource';

/**
 * The Skill Directory grouped by cluster (`toolshed.skills.directoryGroupBy: cluster`): one
 * group per cluster (sorted by label), then "No cluster"; a skill keeps its pack in its row.
 * Packs with problems of their own stay listed after the groups, with those problems only,
 * so nothing a pack author must fix disappears when the grouping changes.
 */

export const NO_CLUSTER_LABEL = 'No cluster';

export function packsByCluster(packs: readonly PackView[]): PackView[] {
  const skills = packs.flatMap((pack) => pack.skills);
  const groups = groupByCluster(skills, (skill) => skill.cluster).map((group): PackView => ({
    name: group.cluster ?? NO_CLUSTER_LABEL,
    kind: 'cluster',
    skills: group.items,
  }));
  const problems = packs.filter((pack) => (pack.problems?.length ?? 0) > 0).map((pack): PackView => ({ ...pack, skills: [] }));
  return [...groups, ...problems];
}
