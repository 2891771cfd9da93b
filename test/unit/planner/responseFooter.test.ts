import * as assert from 'node:assert/strict';
import type { TokenReport } from '../../../src/core/planner/plannerLoop';
import { modelRequestsLine, preActivationLine, responseFooter, responseFooterLines, withoutFooter } from '../../../src/core/planner/responseFooter';

function report(perRound: Array<{ tools: number; tokens: number }>, toolsAvailable: number, allPerRound: number): TokenReport {
  return {
    promptBlockTokens: 100,
    injectedSkillTokens: 0,
    selectionTokens: 0,
    toolsAvailable,
    perRound,
    toolsSent: perRound.reduce((n, r) => n + r.tools, 0),
    toolDefinitionTokens: perRound.reduce((n, r) => n + r.tokens, 0),
    allToolDefinitionTokens: allPerRound * perRound.length,
  };
}

describe('response footer', () => {
  it('sums every round: 4 + 12 + 12 of 233 tools is a smaller saving than round 1 alone suggests', () => {
    // A three-round session: round 1 sent 4 tools, rounds 2 and 3 sent 12 each.
    const tokens = report(
      [
        { tools: 4, tokens: 800 },
        { tools: 12, tokens: 2400 },
        { tools: 12, tokens: 2400 },
      ],
      233,
      20_000,
    );
    const [line] = responseFooterLines({ tokens, stoppedBecause: 'done', maxRounds: 12 });
    assert.equal(
      line,
      '_Toolshed sent 4 + 12 + 12 of 233 tools over 3 rounds: 5,600 tokens of tool definitions instead of 60,000 for all 233 in every round (91% fewer)._',
    );
  });

  it('one round keeps the short sentence', () => {
    const tokens = report([{ tools: 4, tokens: 800 }], 233, 20_000);
    assert.equal(
      responseFooterLines({ tokens, stoppedBecause: 'done', maxRounds: 12 })[0],
      '_Toolshed sent 4 of 233 tools: 800 tokens of tool definitions instead of 20,000 (96% fewer)._',
    );
  });

  it('says nothing about savings when nothing was deferred or the turn was cancelled; names the round cap', () => {
    const none = report([{ tools: 5, tokens: 900 }], 5, 900);
    assert.deepEqual(responseFooterLines({ tokens: none, stoppedBecause: 'done', maxRounds: 12 }), ['_Model requests: 1 (1 round)._']);
    const saved = report([{ tools: 2, tokens: 90 }], 5, 900);
    assert.deepEqual(responseFooterLines({ tokens: saved, stoppedBecause: 'cancelled', maxRounds: 12 }), []);
    assert.match(responseFooterLines({ tokens: none, stoppedBecause: 'maxRounds', maxRounds: 7 })[0]!, /Stopped after 7 rounds/);
  });

  it('the selection line names the model that chose the skills and what it cost; withoutFooter removes it', () => {
    const tokens = { ...report([{ tools: 5, tokens: 900 }], 5, 900), selectionTokens: 412, selectionRequests: 1, selectionModel: 'GPT-4o mini' };
    const lines = responseFooterLines({ tokens, stoppedBecause: 'done', maxRounds: 12 });
    assert.deepEqual(lines, [
      '_Choosing the active skills with GPT-4o mini cost 412 tokens (setting `toolshed.skills.selection`)._',
      '_Model requests: 2 (1 to choose the active skills, 1 round)._',
    ]);
    assert.equal(withoutFooter(`Answer.\n\n${lines.join('\n')}`).trim(), 'Answer.');
    const unnamed = responseFooterLines({ tokens: { ...tokens, selectionModel: undefined }, stoppedBecause: 'done', maxRounds: 12 });
    assert.equal(unnamed[0], '_Choosing the active skills cost 412 tokens (setting `toolshed.skills.selection`)._');
  });

  it('withoutFooter leaves only the answer', () => {
    const tokens = report(
      [
        { tools: 4, tokens: 800 },
        { tools: 12, tokens: 2400 },
      ],
      233,
      20_000,
    );
    const answer = `Oslo: sunny.${responseFooter({ tokens, stoppedBecause: 'maxRounds', maxRounds: 2 })}`;
    assert.equal(withoutFooter(answer).trim(), 'Oslo: sunny.');
    assert.equal(
      withoutFooter('Use _emphasis_ freely.\n_Toolshed sent me here_ is not a footer line either').trim(),
      'Use _emphasis_ freely.\n_Toolshed sent me here_ is not a footer line either',
    );
  });

  it('counts the tools pre-activated from skills (one line, singular and plural), and withoutFooter removes it', () => {
    const one = { ...report([{ tools: 3, tokens: 300 }], 10, 1000), preActivatedTools: ['weather_lookup'] };
    const lines = responseFooterLines({ tokens: one, stoppedBecause: 'done', maxRounds: 12 });
    // No saving claimed without a measured one: pre-activated but not (yet) shown to have spared a search.
    assert.ok(
      lines.includes('_Pre-activated 1 tool named by the skills before the first round (setting `toolshed.learning.autoActivateTools`)._'),
      lines.join('\n'),
    );
    const two = { ...one, preActivatedTools: ['a_tool', 'b_tool'] };
    const answer = `Done.${responseFooter({ tokens: two, stoppedBecause: 'done', maxRounds: 12 })}`;
    assert.match(answer, /_Pre-activated 2 tools named by the skills/);
    assert.equal(withoutFooter(answer).trim(), 'Done.');
    assert.ok(
      !responseFooterLines({ tokens: report([{ tools: 3, tokens: 300 }], 10, 1000), stoppedBecause: 'done', maxRounds: 12 }).some((l) =>
        l.includes('Pre-activated'),
      ),
    );
  });

  it("tools from skills: the measured saving (tools called before any search found them, one select: search's tokens), never when cancelled", () => {
    const saved = {
      ...report(
        [
          { tools: 3, tokens: 300 },
          { tools: 3, tokens: 300 },
        ],
        10,
        1000,
      ),
      preActivatedTools: ['weather_lookup', 'issue_create'],
      searchSaving: { tools: ['weather_lookup'], tokens: 1234 },
    };
    const line = responseFooterLines({ tokens: saved, stoppedBecause: 'done', maxRounds: 12 }).find((l) => l.startsWith('_Pre-activated'));
    assert.equal(
      line,
      '_Pre-activated 2 tools named by the skills before the first round (setting `toolshed.learning.autoActivateTools`). The model called `weather_lookup` before any `tool_search` found it: that saved 1 `tool_search` round (≈ 1,234 tokens of search call and result)._',
    );
    const two = preActivationLine({ ...saved, searchSaving: { tools: ['weather_lookup', 'issue_create'], tokens: 50 } });
    assert.match(two!, /called `weather_lookup`, `issue_create` before any `tool_search` found them: that saved 1 `tool_search` round \(≈ 50 tokens/);
    assert.equal(
      preActivationLine({ ...saved, searchSaving: { tools: [], tokens: 0 } }),
      '_Pre-activated 2 tools named by the skills before the first round (setting `toolshed.learning.autoActivateTools`)._',
    );
    assert.ok(!responseFooterLines({ tokens: saved, stoppedBecause: 'cancelled', maxRounds: 12 }).some((l) => l.includes('Pre-activated')));
    assert.equal(withoutFooter(`Done.${responseFooter({ tokens: saved, stoppedBecause: 'done', maxRounds: 12 })}`).trim(), 'Done.');
  });

  it('counts every model request of the turn: the skill-selection request and each round', () => {
    const twoRounds = report(
      [
        { tools: 3, tokens: 300 },
        { tools: 4, tokens: 400 },
      ],
      10,
      1000,
    );
    assert.equal(modelRequestsLine(twoRounds), '_Model requests: 2 (2 rounds)._');
    assert.equal(
      modelRequestsLine({ ...twoRounds, selectionRequests: 1, selectionTokens: 420 }),
      '_Model requests: 3 (1 to choose the active skills, 2 rounds)._',
    );
    const lines = responseFooterLines({ tokens: { ...twoRounds, selectionRequests: 1, selectionTokens: 420 }, stoppedBecause: 'done', maxRounds: 12 });
    assert.ok(lines.includes('_Model requests: 3 (1 to choose the active skills, 2 rounds)._'), lines.join('\n'));
    assert.ok(!responseFooterLines({ tokens: twoRounds, stoppedBecause: 'cancelled', maxRounds: 12 }).some((l) => l.includes('Model requests')));
  });

  it('names the tools activated because they matched the request, with their relevance; withoutFooter removes the line', () => {
    const tokens = { ...report([{ tools: 3, tokens: 300 }], 10, 1000), requestMatchedTools: [{ name: 'count_words', relevance: 0.714 }] };
    const answer = `Done.${responseFooter({ tokens, stoppedBecause: 'done', maxRounds: 12 })}`;
    assert.match(
      answer,
      /_Activated 1 tool matching your request before the first round: `count_words` \(0\.71\) \(setting `toolshed\.toolSearch\.preActivateTools`\)\._/,
    );
    assert.equal(withoutFooter(answer).trim(), 'Done.');
  });
});
