import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DEMO_TOOLS } from '../../../examples/demo-model/src/demoToolCatalog';
import { toolsSection } from '../../../src/core/planner/turn/explainMarkdown';
import { explainTools } from '../../../src/core/planner/turn/turnExplanation';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { makeService } from './helpers';

/**
 * The tool gate returns a verdict per candidate — passed, or the rule that failed with the numbers
 * it compared — and Explain Last Turn prints that verdict. These tests run the real gate (the
 * demo's 108 tools, as `npm start` shows them) and hold every explanation to what the gate did.
 */

const TOOLS: ToolInput[] = DEMO_TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, source: 'mcp' }));
const CONTEXT = { preActivateTools: 4, minRelevance: 0.2, restricted: false };

async function explained(request: string, toolSearch: { preActivateTools?: number; minRelevance?: number } = {}) {
  const { service } = await makeService({ tools: TOOLS, toolSearch });
  const run = await service.startRun();
  const activated = run.activateForRequest(request).map((t) => t.name);
  const match = run.lastRequestMatch!;
  const config = service.config.toolSearch;
  return { activated, match, tools: explainTools(match, { ...CONTEXT, preActivateTools: config.preActivateTools, minRelevance: config.minRelevance }) };
}

describe('the tool gate’s verdicts, as Explain Last Turn prints them', () => {
  it('"Is the air in Bergen safe to breathe today?": the one candidate fails the word rule, and is not explained as over the cap', async () => {
    const { activated, match, tools } = await explained('Is the air in Bergen safe to breathe today?');
    assert.deepEqual(activated, []);
    const air = match.candidates.find((c) => c.name === 'air_quality_index');
    assert.ok(air, JSON.stringify(match.candidates));
    assert.ok(air.relevance >= 0.2, 'it passes the relevance threshold');
    assert.deepEqual(air.verdict, { passed: false, rule: 'words', shared: 1, inName: true });
    const decision = tools.candidates.find((c) => c.name === 'air_quality_index')?.decision;
    assert.equal(decision, "shares 1 of the request's words (one in its name): needs 2, one of them in its name, or 3");
    assert.ok(!/over the cap/.test(toolsSection(tools).join('\n')));
  });

  it('the cap: a candidate that passed after `preActivateTools` others is over the cap, with its position', async () => {
    const { activated, match, tools } = await explained('List the open pull requests and the open issues of the repository', { preActivateTools: 1 });
    assert.equal(activated.length, 1);
    const capped = match.candidates.filter((c) => !c.verdict.passed && c.verdict.rule === 'cap');
    assert.ok(capped.length > 0, JSON.stringify(match.candidates));
    for (const c of capped) {
      assert.ok(c.verdict.passed === false && c.verdict.rule === 'cap' && c.verdict.position > 1);
      assert.match(
        tools.candidates.find((t) => t.name === c.name)!.decision,
        /^over the cap \(passed as number \d+; toolshed\.toolSearch\.preActivateTools 1\)$/,
      );
    }
  });

  it('a long request: a sentence is held to 0.46, and the explanation says which minimum', async () => {
    const long = `${'We keep our notes in a shared folder and the team reviews them every Monday morning. '.repeat(6)}Is the air in Bergen safe to breathe today?`;
    const { match, tools } = await explained(long);
    assert.equal(match.minRelevance, 0.46);
    for (const c of match.candidates)
      if (!c.verdict.passed && c.verdict.rule === 'minRelevance')
        assert.match(tools.candidates.find((t) => t.name === c.name)!.decision, /^below 0\.46, the minimum for one sentence of a long request/);
  });

  it('for any request, each verdict is what the gate did and its numbers hold (fast-check)', async () => {
    const services = await Promise.all([1, 2, 3, 4].map(async (max) => (await makeService({ tools: TOOLS, toolSearch: { preActivateTools: max } })).service));
    const words = [
      'weather',
      'forecast',
      'air',
      'quality',
      'Bergen',
      'open',
      'issues',
      'pull',
      'requests',
      'list',
      'flaky',
      'tests',
      'CI',
      'calendar',
      'meeting',
      'translate',
      'file',
      'the',
      'today',
      'next',
      'week',
      'search',
      'email',
      'send',
      'stock',
      'price',
      'convert',
      'currency',
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 4 }), async (picked, max) => {
        const run = await services[max - 1]!.startRun();
        const activated = run.activateForRequest(picked.join(' ')).map((t) => t.name);
        const match = run.lastRequestMatch!;
        const tools = explainTools(match, { ...CONTEXT, preActivateTools: max });
        const passed = match.candidates.filter((c) => c.verdict.passed).map((c) => c.name);
        assert.deepEqual(passed, match.passed, 'the verdicts are the gate');
        assert.ok(passed.length <= max);
        const best = Math.max(
          0,
          ...match.candidates.filter((c) => c.verdict.passed || (c.verdict.rule !== 'stuffed' && c.verdict.rule !== 'words')).map((c) => c.relevance),
        );
        for (const c of match.candidates) {
          const decision = tools.candidates.find((t) => t.name === c.name)!.decision;
          if (c.verdict.passed) {
            assert.ok(c.relevance >= 0.2 && c.relevance >= 0.6 * best - 1e-12);
            assert.equal(decision, activated.includes(c.name) ? 'activated before round 1' : 'passed, already sent in this request');
            continue;
          }
          const v = c.verdict;
          if (v.rule === 'minRelevance') assert.ok(c.relevance < v.minimum && /^below toolshed\.toolSearch\.minRelevance/.test(decision));
          else if (v.rule === 'words') assert.ok(v.shared < 3 && !(v.shared >= 2 && v.inName) && c.relevance >= 0.2 && /^shares /.test(decision));
          else if (v.rule === 'relativeCut') assert.ok(c.relevance < v.cut * v.best && c.relevance >= 0.2 && /^below the relative cut/.test(decision));
          else if (v.rule === 'cap') assert.ok(v.position > max && match.passed.length === max && /^over the cap/.test(decision));
          else assert.ok(c.flagged && /^not used: /.test(decision));
        }
        run.end();
      }),
      { numRuns: 60 },
    );
  });
});
