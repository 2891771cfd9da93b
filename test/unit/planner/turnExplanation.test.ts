import * as assert from 'node:assert/strict';
import { skillsConfigSchema } from '../../../src/core/config/settingsSchema';
import { skillsSection, toolsSection } from '../../../src/core/planner/turn/explainMarkdown';
import { explainSkills, explainTools } from '../../../src/core/planner/turn/turnExplanation';
import { requestMatchReason } from '../../../src/core/tools/requestMatchRecord';

/** Explain Last Turn's decisions, from what a turn recorded: each candidate gets the reason a user can act on. */
describe('Explain Last Turn: why each candidate was used or left out', () => {
  it('tools: each verdict of the gate in words — activated, already sent, the cap, the relative cut, the threshold, the word rule, a stuffed description', () => {
    const tools = explainTools(
      {
        candidates: [
          { name: 'get_forecast', relevance: 0.8, matchedTerms: ['weather', 'forecast'], verdict: { passed: true } },
          { name: 'always_sent', relevance: 0.7, verdict: { passed: true } },
          { name: 'city_info', relevance: 0.6, verdict: { passed: false, rule: 'cap', position: 3, max: 2 } },
          { name: 'book_flight', relevance: 0.4, verdict: { passed: false, rule: 'relativeCut', relevance: 0.4, best: 0.8, cut: 0.6 } },
          { name: 'misc', relevance: 0.1, verdict: { passed: false, rule: 'minRelevance', relevance: 0.1, minimum: 0.2 } },
          { name: 'air_quality', relevance: 0.23, matchedTerms: ['air'], verdict: { passed: false, rule: 'words', shared: 1, inName: true } },
          {
            name: 'everything_tool',
            relevance: 0.75,
            flagged: 'description 40× longer than its peers',
            verdict: { passed: false, rule: 'stuffed', reason: 'description 40× longer than its peers' },
          },
        ],
        minRelevance: 0.2,
        relativeCut: 0.6,
        max: 2,
        passed: ['get_forecast', 'always_sent'],
        activated: ['get_forecast'],
      },
      { preActivateTools: 2, minRelevance: 0.2, restricted: false },
    );
    const decision = Object.fromEntries(tools.candidates.map((c) => [c.name, c.decision]));
    assert.deepEqual(decision, {
      get_forecast: 'activated before round 1',
      always_sent: 'passed, already sent in this request',
      city_info: 'over the cap (passed as number 3; toolshed.toolSearch.preActivateTools 2)',
      book_flight: 'below the relative cut (0.6 × best 0.80 = 0.48)',
      misc: 'below toolshed.toolSearch.minRelevance 0.20',
      air_quality: "shares 1 of the request's words (one in its name): needs 2, one of them in its name, or 3",
      everything_tool: 'not used: description 40× longer than its peers',
    });
    const text = toolsSection(tools).join('\n');
    assert.match(text, /✅ `get_forecast` — 0\.80 \(matched: weather, forecast\) — activated before round 1/);
    assert.match(text, /▫️ `everything_tool` — 0\.75 — not used: .* ⚠️ looks stuffed/);
    assert.equal(requestMatchReason(tools.candidates[0]!), 'matched your request: weather, forecast — 0.80');
  });

  it('tools in Restricted Mode: nothing was pre-activated, and the explanation says why', () => {
    assert.match(
      toolsSection(explainTools(undefined, { preActivateTools: 4, minRelevance: 0.2, restricted: true })).join('\n'),
      /Restricted Mode: no tool runs/,
    );
  });

  it('skills: injected, left out for the budget, not chosen by the model, a pin that does not exist here', () => {
    const config = skillsConfigSchema.parse({ selection: 'hybrid' });
    const skills = explainSkills(
      config,
      {
        used: [
          { name: 'commit-message', reason: 'chosen by the model', relevance: 0.5 },
          { name: 'team-style', reason: 'pinned' },
        ],
        omitted: ['release-notes'],
        record: {
          selection: 'hybrid',
          ranked: [
            { name: 'commit-message', relevance: 0.5, verdict: { passed: true } },
            { name: 'release-notes', relevance: 0.45, verdict: { passed: true } },
            { name: 'changelog', relevance: 0.4, verdict: { passed: true } },
            { name: 'poetry', relevance: 0.1, verdict: { passed: false, rule: 'minRelevance', relevance: 0.1, minimum: 0.25 } },
          ],
          offered: ['commit-message', 'release-notes', 'changelog'],
          model: { asked: true, wouldAsk: true, name: 'small-model', chose: ['commit-message'] },
        },
      },
      { pinnedNames: ['team-style', 'gone-skill'], workspaceSkills: false },
    );
    const decision = Object.fromEntries(skills.candidates.map((c) => [c.name, c.decision]));
    assert.deepEqual(decision, {
      'commit-message': 'injected (chosen by the model)',
      'release-notes': 'left out to stay within the budget (toolshed.skills.maxTokens)',
      changelog: 'not chosen by the model',
      poetry: 'below toolshed.skills.minRelevance 0.25',
    });
    assert.deepEqual(skills.pinned, [
      { name: 'team-style', decision: 'injected (pinned)' },
      { name: 'gone-skill', decision: 'pinned, but not available here' },
    ]);
    const text = skillsSection(skills).join('\n');
    assert.match(text, /A model \(small-model\) was asked to choose and chose: `commit-message`\./);
    assert.match(text, /Restricted Mode: skills from this workspace were not searched or injected/);
  });

  it('skills without a model: one the request’s words do not corroborate needed a model, like one below the confirmation bar', () => {
    const config = skillsConfigSchema.parse({ selection: 'hybrid' });
    const skills = explainSkills(
      config,
      {
        used: [{ name: 'report', reason: 'best match', relevance: 0.6 }],
        omitted: [],
        record: {
          selection: 'hybrid',
          ranked: [
            { name: 'report', relevance: 0.6, verdict: { passed: true } },
            { name: 'competitor-alternatives', relevance: 0.94, verdict: { passed: true }, corroborated: false },
            { name: 'statistics', relevance: 0.44, verdict: { passed: true }, corroborated: false },
          ],
          offered: ['report', 'competitor-alternatives', 'statistics'],
          model: { asked: false, wouldAsk: true, chose: [] },
        },
      },
      { pinnedNames: [], workspaceSkills: true },
    );
    assert.deepEqual(Object.fromEntries(skills.candidates.map((c) => [c.name, c.decision])), {
      report: 'injected (best match)',
      'competitor-alternatives': "needed a model's confirmation (its name and description share too few of the request's words)",
      statistics: "needed a model's confirmation (below toolshed.skills.askModelBelowRelevance 0.45)",
    });
  });

  it('a name cannot break out of its code span', () => {
    const tools = explainTools(
      {
        candidates: [{ name: 'evil`** injected **`', relevance: 0.5, verdict: { passed: false, rule: 'relativeCut', relevance: 0.5, best: 0.9, cut: 0.6 } }],
        minRelevance: 0.2,
        relativeCut: 0.6,
        max: 4,
        passed: [],
        activated: [],
      },
      { preActivateTools: 4, minRelevance: 0.2, restricted: false },
    );
    assert.match(toolsSection(tools).join('\n'), /`evil\*\* injected \*\*`/);
  });
});
