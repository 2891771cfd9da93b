import { strict as assert } from 'node:assert';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { cleanLoad, problemsOnDemand } from '../../../src/core/skills/packs/keptProblems';
import type { ParsedFile } from '../../../src/core/skills/packs/skillPackWriter';
import type { SkillProblem } from '../../../src/core/skills/packs/document/skillProblems';

const FILE = '/skills/deploy/SKILL.md';

/** Warnings as a parse reports them (text with quotes, escapes and non-ASCII included). */
const problem: fc.Arbitrary<SkillProblem> = fc.record(
  {
    code: fc.constantFrom('unknown-field', 'invalid-name', 'wrong-type', 'name-mismatch-folder'),
    severity: fc.constant('warning'),
    message: fc.string({ maxLength: 120 }),
    file: fc.constant(FILE),
    line: fc.nat({ max: 500 }),
    column: fc.nat({ max: 200 }),
    endLine: fc.nat({ max: 500 }),
    endColumn: fc.nat({ max: 200 }),
    skillName: fc.string({ maxLength: 20 }),
    data: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 20 }), fc.integer()), { noNullPrototype: true }),
  },
  { requiredKeys: ['code', 'severity', 'message', 'file', 'line', 'column', 'endLine', 'endColumn'], noNullPrototype: true },
) as fc.Arbitrary<SkillProblem>;

/** Problems read back from kept bytes, as a warm start reads a trusted file's. */
function readBack(bytes: Uint8Array): SkillProblem[] {
  return problemsOnDemand({ problems: [] as SkillProblem[] }, { file: FILE, problems: bytes }).problems;
}

describe("A file's problems as its fingerprint keeps them", () => {
  it('read back as the load reported them, for any warnings (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(problem, { maxLength: 40 }), (problems) => {
        const kept = cleanLoad({ skills: [{}], problems }, { problems } as unknown as ParsedFile);
        assert.ok(kept);
        assert.deepEqual(readBack(kept.problems), problems);
      }),
      { numRuns: 300 },
    );
  });

  it('kept by an earlier version (deflated with zlib defaults) read back the same', () => {
    // Stores written before the deflate settings changed keep their bytes until the file changes.
    fc.assert(
      fc.property(fc.array(problem, { minLength: 1, maxLength: 40 }), (problems) => {
        const earlier = new Uint8Array(deflateRawSync(JSON.stringify(problems.map((p) => ({ ...p, file: '' })))));
        assert.deepEqual(readBack(earlier), problems);
      }),
      { numRuns: 200 },
    );
  });
});
