import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { surelyAcceptedSkillMd } from '../../../src/core/skills/packs/document/acceptedFrontMatter';
import { agentSkillFrontmatterSchema, KNOWN_SKILL_KEYS } from '../../../src/core/skills/skillSchema';

/**
 * The parser skips zod for SKILL.md front matter `surelyAcceptedSkillMd` accepts: every such
 * answer must be one the schema gives too, whatever the fields hold (an answer `false` only means
 * the schema is asked).
 */

/** Strings around the schema's limits: empty, white space only, 64 / 65, 200 / 201, 500 / 501, 1024 / 1025 characters. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', '\t\n', '\u00a0', '\ufeff', 'a', ' a ', 'write-tests', 'Write-Tests', 'a--b', '-a', 'a-', 'x86-64', 'é'),
  fc
    .constantFrom(64, 65, 200, 201, 500, 501, 1024, 1025)
    .chain((n) => fc.constantFrom('a'.repeat(n), ` ${'b'.repeat(n - 2)} `, 'c-'.repeat(n / 2).slice(0, n))),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: text },
  fc.boolean(),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(text, { maxLength: 4 }),
  fc.array(fc.oneof(text, fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('author', 'version', 'a b', ''), fc.oneof(text, fc.integer(), fc.array(text, { maxLength: 2 })), { maxKeys: 3 }),
  fc.constant(Object.create(null) as unknown),
  fc.constant(new Map()),
);
const key = fc.oneof(
  fc.constantFrom(...KNOWN_SKILL_KEYS),
  fc.constantFrom('version', 'author', 'homepage', 'Name', 'allowed_tools', 'constructor', 'toString'),
);

describe('SKILL.md front matter accepted without zod (surelyAcceptedSkillMd)', () => {
  it('accepts only fields the schema accepts (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.option(text, { nil: undefined }),
        fc.option(text, { nil: undefined }),
        fc.array(fc.tuple(key, value), { maxLength: 6 }),
        (name, description, rest) => {
          const fields: Record<string, unknown> = {};
          if (name !== undefined) fields.name = name;
          if (description !== undefined) fields.description = description;
          for (const [k, v] of rest) fields[k] = v;
          if (surelyAcceptedSkillMd(fields)) assert.ok(agentSkillFrontmatterSchema.safeParse(fields).success, JSON.stringify(fields));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('accepts the shapes real libraries write, and leaves the rest to the schema', () => {
    const common = {
      name: 'auditing-kubernetes-rbac',
      description: 'Audit RBAC roles and bindings. Use when reviewing cluster permissions.',
      license: 'Apache-2.0',
      metadata: { author: 'someone', version: '1.0' },
      'allowed-tools': 'Bash Read',
      tags: ['kubernetes', 'rbac'],
      domain: 'cybersecurity',
      version: '1.0',
      nist_csf: ['PR.IR-01'],
    };
    assert.equal(surelyAcceptedSkillMd(common), true);
    assert.equal(agentSkillFrontmatterSchema.safeParse(common).success, true);
    // Not sure: a name off the rule, a missing or blank description, a nested metadata map, a key decided by the schema.
    for (const fields of [
      { ...common, name: 'Auditing RBAC' },
      { ...common, description: '   ' },
      { name: common.name },
      { ...common, metadata: { openclaw: { requires: ['bin'] } } },
      { ...common, requires: ['API_KEY'] },
    ])
      assert.equal(surelyAcceptedSkillMd(fields), false, JSON.stringify(fields));
  });
});
