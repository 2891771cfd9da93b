import { strict as assert } from 'node:assert';
import { VariantRecallCounter, variantFamily } from '../../../src/cli/commands/variantRecall';

describe('bench tools: recall split by BFCL name variants', () => {
  it('a variant family is the name without its __vN suffix', () => {
    assert.equal(variantFamily('get_current_weather__v12'), 'get_current_weather');
    assert.equal(variantFamily('get_current_weather'), 'get_current_weather');
    assert.equal(variantFamily('a__v2b'), 'a__v2b');
  });

  it('counts exact and any-variant hits apart, per kind of gold', () => {
    const counter = new VariantRecallCounter(['weather', 'weather__v2', 'weather__v3', 'stocks']);
    assert.equal(counter.hasVariants, true);
    counter.add(['weather__v3'], ['weather', 'weather__v2', 'a', 'b', 'c', 'weather__v3']); // family hit @1, exact @6
    counter.add(['stocks'], ['stocks']);
    counter.add(['stocks'], ['x']);
    const report = counter.report();
    assert.deepEqual(report.gold_with_variants, { queries: 1, recall_at_5: 0, recall_at_10: 1, family_recall_at_5: 1, family_recall_at_10: 1 });
    assert.deepEqual(report.gold_single_definition, { queries: 2, recall_at_5: 0.5, recall_at_10: 0.5, family_recall_at_5: 0.5, family_recall_at_10: 0.5 });
  });

  it('a catalog without variants has nothing to split', () => {
    assert.equal(new VariantRecallCounter(['a', 'b']).hasVariants, false);
  });
});
