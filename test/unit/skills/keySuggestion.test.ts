import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { closestKnownKey, editDistance } from '../../../src/core/skills/packs/document/keySuggestion';
import { KNOWN_SKILL_KEYS } from '../../../src/core/skills/skillSchema';

/** The suggestion as first specified: every known key compared, nearest first in key order, within a third of the key's length. */
function reference(key: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = key.toLowerCase().replace(/-/g, '_');
  for (const known of KNOWN_SKILL_KEYS) {
    const d = editDistance(lower, known.toLowerCase().replace(/-/g, '_'));
    if (d < bestDistance) {
      bestDistance = d;
      best = known;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(key.length / 3)) ? best : undefined;
}

describe('unknown skill field: "did you mean"', () => {
  it('suggests the nearest known key (descripton → description), nothing for a far one', () => {
    assert.equal(closestKnownKey('descripton'), 'description');
    assert.equal(closestKnownKey('Descripton'), 'description');
    assert.equal(closestKnownKey('license_x_y_z_version'), undefined);
  });

  it('property: the same suggestion as comparing every known key, asked once or many times (misspellings, random keys, repeats)', () => {
    const misspelt = fc
      .tuple(fc.constantFrom(...KNOWN_SKILL_KEYS), fc.nat(), fc.constantFrom('', 'x', '-', 'ee'))
      .map(([known, at, insert]) => known.slice(0, at % (known.length + 1)) + insert + known.slice((at % (known.length + 1)) + (insert ? 0 : 1)));
    const key = fc.oneof(misspelt, fc.string({ maxLength: 30 }), fc.constantFrom('version', 'author', 'license', 'metadata'));
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 20 }), (keys) => {
        for (const k of [...keys, ...keys]) assert.equal(closestKnownKey(k), reference(k), k);
      }),
      { numRuns: 300 },
    );
  });
});
