import * as assert from 'node:assert/strict';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { exportedTo, planRetirement } from '../../../src/core/skills/store/learned/exportedLearnedSkills';
import type { ExportClaim } from '../../../src/core/skills/store/learned/exportedLearnedSkills';
import { skillRecord } from './helpers';

const record = (extra: Partial<SkillRecord>): SkillRecord => skillRecord({ scope_mode: 'project', scope_project_id: 'p1', ...extra });

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
