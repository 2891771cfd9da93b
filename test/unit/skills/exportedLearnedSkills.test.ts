import * as assert from 'node:assert/strict';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { exportedTo, planRetirement } from '../../../src/core/skills/store/learned/exportedLearnedSkills';
import type { ExportClaim } from '../../../src/core/skills/store/learned/exportedLearnedSkills';

function record(extra: Partial<SkillRecord>): SkillRecord {
  return {
    id: 'sk_x',
    name: 'x',
    title: 'x',
    description: '',
    trigger: 't',
    task_type: 'unknown',
    tags: [],
    steps: ['s'],
    preconditions: [],
    failure_modes: [],
    body: '',
    origin: 'learned',
    origin_ref: '',
    content_hash: 'h',
    scope_mode: 'project',
    scope_tenant_id: '',
    scope_project_id: 'p1',
    created_at: 0,
    updated_at: 0,
    last_used: 0,
    use_count: 0,
    domain: '',
    frames: [],
    triggers: [],
    tools: [],
    allowed_tools: [],
    requires: [],
    meta: {},
    resources: [],
    extra: {},
    pack_name: '',
    workspace: false,
    source_file: '',
    source_line: 1,
    format: 'learned',
    status: 'active',
    status_reason: '',
    model_invocable: true,
    ...extra,
  };
}

const claim = (learned_id: string, source_hashes = '', name = 'fix-build'): ExportClaim => ({
  learned_id,
  source_hashes,
  name,
  scope_mode: 'project',
  scope_tenant_id: '',
  scope_project_id: 'p1',
  source_file: `/ws/.github/skills/${name}/SKILL.md`,
  pack_name: 'ws',
});

describe('exported learned skills: which learned copies a loaded pack skill retires', () => {
  it('retires by learned id, or by source hash when the id changed; leaves others alone', () => {
    const byId = record({ id: 'sk_a', name: 'learned.a' });
    const byHash = record({ id: 'sk_moved', name: 'learned.b', extra: { source_hash: 'h2' } });
    const other = record({ id: 'sk_c', name: 'learned.c', extra: { source_hash: 'h9' } });
    const changed = planRetirement([byId, byHash, other], [claim('sk_a'), claim('sk_gone', 'h1 h2', 'b')]);
    assert.deepEqual(
      changed.map((r) => [r.name, r.status, exportedTo(r)?.name]),
      [
        ['learned.a', 'inactive', 'fix-build'],
        ['learned.b', 'inactive', 'b'],
      ],
    );
    assert.match(changed[0]!.status_reason, /exported as pack skill "fix-build" \(\/ws\/\.github\/skills\/fix-build\/SKILL\.md\)/);
  });

  it('is idempotent, and brings a retired copy back (exactly as before) once no pack skill claims it', () => {
    const original = record({ id: 'sk_a', name: 'learned.a', extra: { source_hash: 'h1', lineage: { merged_from: [] } } });
    const [retired] = planRetirement([original], [claim('sk_a')]);
    assert.deepEqual(planRetirement([retired!], [claim('sk_a')]), [], 'nothing more to do');
    const [back] = planRetirement([retired!], []);
    assert.deepEqual(back, original);
  });
});
