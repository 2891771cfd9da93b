import * as assert from 'node:assert/strict';
import { NO_CLUSTER_LABEL, packsByCluster } from '../../../src/vscode/views/clusterGrouping';
import type { PackView, SkillView } from '../../../src/vscode/views/skillDirectorySource';
import { packNode, skillNode } from '../../../src/vscode/views/skillTreeModel';

const skill = (name: string, packName: string, cluster?: string): SkillView => ({
  name,
  title: name,
  trigger: `When ${name}`,
  description: '',
  taskType: 'code',
  tags: [],
  status: 'active',
  packName,
  ...(cluster ? { cluster } : {}),
});

describe('views: Skill Directory grouped by cluster', () => {
  const packs: PackView[] = [
    { name: 'team', kind: 'workspace', skills: [skill('login', 'team', 'Browser Auth'), skill('report', 'team')] },
    { name: 'core', kind: 'builtIn', skills: [skill('logout', 'core', 'browser auth'), skill('deploy', 'core', 'Deploys')] },
    {
      name: 'broken',
      kind: 'configured',
      skills: [],
      problems: [{ severity: 'error', message: 'pack folder not found', file: '/x', line: 1, column: 1, code: 'missing' } as never],
    },
  ];

  it('one group per cluster across packs (labels merged case-insensitively), "No cluster" last, pack problems kept', () => {
    const grouped = packsByCluster(packs);
    assert.deepEqual(
      grouped.map((p) => [p.name, p.kind, p.skills.map((s) => s.name)]),
      [
        ['Browser Auth', 'cluster', ['login', 'logout']],
        ['Deploys', 'cluster', ['deploy']],
        [NO_CLUSTER_LABEL, 'cluster', ['report']],
        ['broken', 'configured', []],
      ],
    );
    assert.equal(grouped[3]!.problems?.length, 1);
    assert.equal(grouped.flatMap((p) => p.skills).length, packs.flatMap((p) => p.skills).length, 'every skill exactly once');
  });

  it('a cluster group reads as a cluster, and a skill row says its cluster and pack', () => {
    const group = packNode(packsByCluster(packs)[0]!);
    assert.match(group.tooltip, /\*\*Browser Auth\*\* \(cluster\)/);
    assert.match(group.description, /^cluster · 2 skills/);
    assert.match(skillNode(skill('login', 'team', 'Browser Auth'), false).tooltip, /pack `team` · cluster \*Browser Auth\*/);
  });
});
