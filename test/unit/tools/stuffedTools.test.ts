import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { SAMPLE_TOOLS, makeService } from './helpers';

/**
 * Tool descriptions are third-party text. A description stuffed with common words must not buy
 * its tool a place in every turn: the gate never activates it (before round 1 or as a search's
 * top hit), while `tool_search` still finds it. A contraction is no search word.
 */

const COMMON =
  'time year people way day man thing woman life child world school state family student group country problem hand part place case week company system program question work government number night point home water room mother area money story fact month lot right study book eye job word business issue side kind head house service friend father power hour game line end member law car city community name president team minute idea kid body information back parent face others level office door health person art war history party result change morning reason research girl guy moment air teacher force education foot boy age policy process music market sense nation plan college interest death experience effect use class control care field development role effort rate heart drug show leader light voice wife police mind price report decision son view relationship town road arm difference value building action model season society tax director position player record paper space ground form event official matter center couple site project activity star table need court oil situation cost industry figure street image phone data picture practice piece land product doctor wall patient worker news test movie north love support technology step baby computer type attention film tree source organization hair window evidence population site book flight hotel weather recipe song poem file next list create open find send get make help';

const STUFFED: ToolInput = {
  name: 'helpful_assistant_tool',
  description: `A helpful tool for everything: ${COMMON}.`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  source: 'mcp',
};

const FILLER: ToolInput[] = Array.from({ length: 12 }, (_, i) => ({
  name: `inventory_tool_${i}`,
  description: `Count stock item ${i} in warehouse bin ${i}.`,
  inputSchema: { type: 'object', properties: {} },
  source: 'mcp' as const,
}));

/** Possessives leave an "s" token in the text of many real tools. */
const POSSESSIVE: ToolInput = {
  name: 'github_list_user_repos',
  description: "List a user's repositories and each repo's stars.",
  inputSchema: { type: 'object', properties: {} },
  source: 'mcp',
};

const UNRELATED = ['Book a flight from Boston to Denver next Friday', 'write a poem about the sea', 'what is a good recipe for pancakes', 'tell me the news'];

describe('stuffed tool descriptions and contractions', () => {
  it('a tool whose description is stuffed with common words is never pre-activated, yet tool_search still finds it', async () => {
    const { service } = await makeService({ tools: [...SAMPLE_TOOLS, ...FILLER, STUFFED] });
    for (const request of UNRELATED) {
      const run = await service.startRun();
      const matched = run.activateForRequest(request).map((t) => t.name);
      assert.ok(!matched.includes(STUFFED.name), `"${request}" pre-activated the stuffed tool`);
      assert.ok(!run.isVisible(STUFFED.name));
    }
    const run = await service.startRun();
    const found = run.search({ query: 'helpful assistant tool flight hotel weather' }, { activate: true });
    assert.ok(found.ok && found.output.tools.some((t) => t.name === STUFFED.name), 'tool_search still returns it');
    assert.ok(!run.isVisible(STUFFED.name), 'not activated as a search result either');
  });

  it('the stuffed tool does not push the right tool out of pre-activation', async () => {
    const { service } = await makeService({ tools: [...SAMPLE_TOOLS, ...FILLER, STUFFED] });
    const run = await service.startRun();
    const matched = run.activateForRequest('What is the weather forecast for Oslo for the next 3 days?');
    assert.deepEqual(
      matched.map((t) => t.name),
      ['weather.get_forecast'],
    );
    assert.ok(matched[0]?.matchedTerms?.includes('weather'), `matched terms: ${JSON.stringify(matched[0]?.matchedTerms)}`);
  });

  it('a request of stop words and contractions pre-activates nothing', async () => {
    const { service } = await makeService({ tools: [...SAMPLE_TOOLS, ...FILLER, POSSESSIVE] });
    for (const request of ["what's 15% of 240?", "what's up?", "it's fine, don't", "they're here, we've seen it"]) {
      const run = await service.startRun();
      assert.deepEqual(run.activateForRequest(request), [], request);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('what', "what's", "it's", "don't", 'is', 'the', 'of', "we've", "you'll", '?', '15', '240'), { maxLength: 8 }),
        async (words) => {
          const run = await service.startRun();
          return run.activateForRequest(words.join(' ')).length === 0;
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("a stuffed tool as a tool_search query's only hit", () => {
  it('is returned but not activated: the only hit is no exception to the stuffed rule', async () => {
    const { service } = await makeService({ tools: [...SAMPLE_TOOLS, ...FILLER, STUFFED] });
    const run = await service.startRun();
    // "helpful assistant" is in no other tool's text: the stuffed tool is the only hit.
    const found = run.search({ query: 'helpful assistant' }, { activate: true });
    assert.ok(found.ok);
    assert.deepEqual(
      found.output.tools.map((t) => t.name),
      [STUFFED.name],
    );
    assert.ok(!run.isVisible(STUFFED.name), 'the stuffed tool was activated as the only hit');
  });
});
