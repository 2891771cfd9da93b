import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { NameFinder } from '../../../src/core/search/nameFinder';
import { ToolReferenceGate } from '../../../src/core/skills/render/toolReferenceGate';

/** What a rewrite can apply to: `name` not preceded or followed by a word character. */
function occursAsWholeWord(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_$])${escaped}(?![A-Za-z0-9_$])`).test(text);
}

// Few characters, so names share prefixes and texts contain names, near-names and overlaps.
const nameChar = fc.constantFrom('a', 'b', 'm', '_', '.', '-', '$', '1', ':', '#');
const textChar = fc.constantFrom('a', 'b', 'm', '_', '.', '-', '$', '1', ':', '#', ' ', '`', '(', ')', '\n', 'é');
const names = fc.array(fc.string({ unit: nameChar, minLength: 1, maxLength: 6 }), { maxLength: 12 });
const texts = (pool: string[]) =>
  fc
    .array(fc.oneof(fc.string({ unit: textChar, maxLength: 4 }), pool.length > 0 ? fc.constantFrom(...pool) : fc.constant('')), { maxLength: 12 })
    .map((parts) => parts.join(''));

describe('NameFinder (tool names in text as whole words)', () => {
  it('finds the names that occur as whole words, and no others', () => {
    const finder = new NameFinder(['mcp_github_create_issue', 'read', 'a.b', 'fs/read-file', '#tag', '']);
    assert.deepEqual(finder.occurringIn('Call mcp_github_create_issue, then read it; `fs/read-file` and #tag.').sort(), [
      '#tag',
      'fs/read-file',
      'mcp_github_create_issue',
      'read',
    ]);
    assert.deepEqual(finder.occurringIn('already thread mcp_github_create_issues a.bc xa.b'), [], 'parts of longer words do not count');
    assert.equal(finder.size, 5, 'the empty name is dropped');
    assert.ok(finder.has('a.b') && !finder.has('a'));
  });

  it('property: equal to checking every name against the text', () => {
    fc.assert(
      fc.property(
        names.chain((pool) => fc.tuple(fc.constant(pool), texts(pool))),
        ([pool, text]) => {
          const expected = [...new Set(pool.filter((name) => name.length > 0 && occursAsWholeWord(text, name)))].sort();
          assert.deepEqual(new NameFinder(pool).occurringIn(text).sort(), expected);
        },
      ),
      { numRuns: Number(process.env.GATE_RUNS ?? 1000) },
    );
  });

  // Letters the gate's replacement text does not contain, so no name hides inside it.
  const snakeChar = fc.constantFrom('q', 'z', 'x', '_', '$', '1');
  const snakeNames = fc.array(fc.string({ unit: snakeChar, minLength: 1, maxLength: 6 }), { maxLength: 12 });
  const withDenied = (pool: fc.Arbitrary<string[]>) =>
    pool.chain((names) => fc.tuple(fc.constant(names), texts(names), fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length })));
  const gateFor = (pool: string[], deniedFlags: boolean[]) => {
    const denied = new Set(pool.filter((_, i) => deniedFlags[i]));
    return { denied, gate: (name: string): 'denied' | 'visible' => (denied.has(name) ? 'denied' : 'visible') };
  };

  it('property: for snake_case names the tool-reference gate rewrites exactly as when every name is checked with includes', () => {
    fc.assert(
      fc.property(withDenied(snakeNames), ([pool, text, deniedFlags]) => {
        const { gate } = gateFor(pool, deniedFlags);
        // `candidates` are checked one by one with `includes`: the old behaviour, kept as the reference.
        const reference = new ToolReferenceGate(gate, []).text(text, pool);
        assert.equal(new ToolReferenceGate(gate, new NameFinder(pool)).text(text), reference);
        assert.equal(new ToolReferenceGate(gate, pool).text(text), reference);
      }),
      { numRuns: Number(process.env.GATE_RUNS ?? 1000) },
    );
  });

  it('a denied name repeated back to back is rewritten every time (each rewrite exposes the next)', () => {
    const gate = (name: string): 'denied' | 'visible' => (name === ':m#ba1' ? 'denied' : 'visible');
    const out = new ToolReferenceGate(gate, new NameFinder([':m#ba1'])).text(':m#ba1'.repeat(200));
    assert.ok(!out.includes(':m#ba1'), out.slice(-80));
  });

  it('property: whatever the names, no denied name is left standing as a word in gated text', () => {
    fc.assert(
      fc.property(withDenied(names), ([pool, text, deniedFlags]) => {
        const { gate, denied } = gateFor(pool, deniedFlags);
        const gated = new ToolReferenceGate(gate, new NameFinder(pool));
        const out = gated.text(text);
        const replacement = gated.text('`' + [...denied][0] + '`');
        for (const name of denied)
          if (!replacement.includes(name)) assert.ok(!occursAsWholeWord(out, name), `${JSON.stringify(name)} in ${JSON.stringify(out)}`);
      }),
      { numRuns: Number(process.env.GATE_RUNS ?? 3000) },
    );
  });
});
