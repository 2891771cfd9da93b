import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FALLBACK_MAX_INPUT_TOKENS, MAX_TOOLS_PER_REQUEST, decideDeferral, describeDeferral } from '../../../../src/core/tools/modes/deferralDecision';
import { DefinitionTokenCache, measureDeferral } from '../../../../src/core/tools/modes/deferralMeasure';
import type { ToolRecord } from '../../../../src/core/tools/toolRecord';

const auto = (toolCount: number, definitionTokens: number, ...window: Array<number | undefined>) =>
  decideDeferral({ mode: 'auto', thresholdPercent: 10, maxInputTokens: window.length > 0 ? window[0] : 128_000, toolCount, definitionTokens });

describe('tool search mode: the auto decision', () => {
  it('sends everything up to exactly the threshold and defers one token above it', () => {
    assert.equal(auto(40, 12_800).deferred, false, '10.0 % is not over 10 %');
    assert.equal(auto(40, 12_800).reason, 'under_threshold');
    assert.equal(auto(40, 12_801).deferred, true);
    assert.equal(auto(40, 12_801).reason, 'over_threshold');
  });

  it('defers above 128 tools even when they are tiny, and not at 128', () => {
    assert.equal(auto(MAX_TOOLS_PER_REQUEST, 1_000).deferred, false);
    const over = auto(MAX_TOOLS_PER_REQUEST + 1, 1_000);
    assert.equal(over.deferred, true);
    assert.equal(over.reason, 'over_tool_cap');
  });

  it('always and off ignore the measurement', () => {
    assert.equal(decideDeferral({ mode: 'always', thresholdPercent: 10, maxInputTokens: 1_000_000, toolCount: 2, definitionTokens: 10 }).deferred, true);
    assert.equal(decideDeferral({ mode: 'off', thresholdPercent: 10, maxInputTokens: 1_000, toolCount: 500, definitionTokens: 90_000 }).deferred, false);
  });

  it('a model without a usable context size is measured against the documented fallback', () => {
    for (const bad of [0, -5, 0.5, Number.NaN, undefined, Number.POSITIVE_INFINITY]) {
      const decision = auto(10, 1_000, bad);
      assert.equal(decision.contextWindow, FALLBACK_MAX_INPUT_TOKENS, String(bad));
      assert.equal(decision.contextWindowAssumed, true);
      assert.ok(Number.isFinite(decision.percent));
    }
  });

  it('describes the decision the way the issue shows it', () => {
    assert.equal(describeDeferral(auto(43, 9_800)), '43 tools, 9.8k tokens = 8 % of 128k: all sent (auto, at most 10 %)');
    assert.equal(describeDeferral(auto(212, 31_000)), '212 tools, 31k tokens = 24 % of 128k: deferred (auto, over 128 tools)');
    assert.match(describeDeferral(auto(3, 500, 0)), /of 128k \(assumed\)/);
    assert.match(
      describeDeferral(decideDeferral({ mode: 'off', thresholdPercent: 10, maxInputTokens: 128_000, toolCount: 200, definitionTokens: 9_000 })),
      /128 sent, the rest deferred \(mode off\)/,
    );
  });

  it('a definition count near Number.MAX_VALUE still gives a finite share (found by the property below)', () => {
    const decision = decideDeferral({ mode: 'auto', thresholdPercent: 1, maxInputTokens: 1, toolCount: 0, definitionTokens: 1.797693134862316e306 });
    assert.ok(Number.isFinite(decision.percent));
    assert.equal(decision.deferred, true);
  });

  it('never throws and stays consistent for any numbers', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('auto', 'always', 'off' as const),
        fc.double(),
        fc.double(),
        fc.integer({ min: 0, max: 100_000 }),
        fc.double({ min: 1, max: 100, noNaN: true }),
        (mode, max, tokens, count, threshold) => {
          const decision = decideDeferral({ mode, thresholdPercent: threshold, maxInputTokens: max, toolCount: count, definitionTokens: tokens });
          assert.ok(decision.contextWindow > 0 && Number.isFinite(decision.percent));
          if (mode === 'auto' && count > MAX_TOOLS_PER_REQUEST) assert.equal(decision.deferred, true);
          assert.equal(typeof describeDeferral(decision), 'string');
        },
      ),
    );
  });
});

describe('tool search mode: measuring with the model tokenizer', () => {
  const record = (name: string, hash = name) => ({ name, recordHash: hash }) as ToolRecord;

  it('counts once per catalog fingerprint and model, again when the catalog changes', async () => {
    const cache = new DefinitionTokenCache();
    let counts = 0;
    const model = {
      id: 'm',
      maxInputTokens: 1000,
      countTokens: async (text: string) => {
        counts++;
        return text.length;
      },
    };
    const config = { mode: 'auto' as const, autoThresholdPercent: 10 };
    const definitions = () => [{ name: 'a', description: 'x'.repeat(200), inputSchema: {} }];
    const first = await measureDeferral({ config, records: [record('a')], definitions, model, cache });
    await measureDeferral({ config, records: [record('a')], definitions, model, cache });
    assert.equal(counts, 1, 'unchanged catalog: cached');
    await measureDeferral({ config, records: [record('a', 'changed')], definitions, model, cache });
    assert.equal(counts, 2, 'changed record hash: counted again');
    await measureDeferral({ config, records: [record('a')], definitions, model: { ...model, id: 'other' }, cache });
    assert.equal(counts, 3, 'another model: counted again');
    assert.equal(first.deferred, true, `${first.definitionTokens} tokens of a 1000-token window`);
  });

  it('a tokenizer returning garbage falls back to an estimate', async () => {
    const decision = await measureDeferral({
      config: { mode: 'auto', autoThresholdPercent: 10 },
      records: [record('a')],
      definitions: () => [{ name: 'a', description: 'short', inputSchema: {} }],
      model: { id: 'm', maxInputTokens: 0, countTokens: async () => Number.NaN },
      cache: new DefinitionTokenCache(),
    });
    assert.ok(decision.definitionTokens > 0 && decision.definitionTokens < 100);
    assert.equal(decision.deferred, false);
  });
});
