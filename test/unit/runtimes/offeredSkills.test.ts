import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import type { PreflightSkills } from '../../../src/core/planner/plannerPorts';
import { openDoorSession } from '../../../src/core/runtimes/doorSession';
import type { DoorSession } from '../../../src/core/runtimes/doorSession';
import { offeredSkills } from '../../../src/core/runtimes/offeredSkills';
import { makeWorld, PDF_SKILL, writeSkill } from './hookFixtures';
import type { HookWorld } from './hookFixtures';

type Verdict = NonNullable<NonNullable<PreflightSkills['record']>['ranked'][number]['verdict']>;
const passed: Verdict = { passed: true };
const cut = (relevance: number, best: number): Verdict => ({ passed: false, rule: 'relativeCut', relevance, best, cut: 0.7 });
const below = (relevance: number): Verdict => ({ passed: false, rule: 'minRelevance', relevance, minimum: 0.25 });
const stuffed: Verdict = { passed: false, rule: 'stuffed', reason: 'its description uses 400 different words' };

/** A hybrid pre-flight with no model: the gate's candidates in search order (passed unless a verdict says otherwise), `injected` went in. */
function preflight(candidates: Array<[string, number, Verdict?]>, injected: string[] = [], wouldAsk = true): PreflightSkills {
  return {
    pinnedBlock: '',
    relevantBlock: '',
    used: injected.map((name) => ({ name })),
    omitted: [],
    record: {
      selection: 'hybrid',
      ranked: candidates.map(([name, relevance, verdict]) => ({ name, relevance, verdict: verdict ?? passed })),
      offered: candidates.filter(([, , verdict]) => !verdict || verdict.passed).map(([name]) => name),
      model: { asked: false, wouldAsk, chose: [] },
    },
  };
}
const unsure = (candidates: Array<[string, number, Verdict?]>, injected: string[] = []) => preflight(candidates, injected);

/** What a door offers the runtime's model when the gate is unsure (the hook and the reach bench read it). */
describe('skills a door offers instead of injecting', () => {
  it('the best two not injected are offered, even one just above the gate', () => {
    assert.deepEqual(
      offeredSkills(
        unsure([
          ['pdf-form-filler', 0.43],
          ['pdf-fill-studio', 0.3],
          ['signup-flow', 0.19],
        ]),
      ),
      ['pdf-form-filler', 'pdf-fill-studio'],
    );
    assert.deepEqual(
      offeredSkills(
        unsure(
          [
            ['api-design', 0.47],
            ['mcp-server-patterns', 0.44],
            ['jira', 0.41],
          ],
          ['api-design'],
        ),
      ),
      ['mcp-server-patterns', 'jira'],
    );
  });

  it('nothing when the request’s best candidate is under 0.28: a request whose best match is that weak is one no skill serves', () => {
    assert.deepEqual(
      offeredSkills(
        unsure([
          ['gotrain', 0.27],
          ['luma', 0.26],
        ]),
      ),
      [],
    );
    // The floor is the request's, not each offer's: beside a best at 0.28 the second is offered too.
    assert.deepEqual(
      offeredSkills(
        unsure([
          ['gotrain', 0.28],
          ['luma', 0.26],
        ]),
      ),
      ['gotrain', 'luma'],
    );
  });

  it('a candidate the request’s words do not corroborate is never offered, however relevant', () => {
    // "translate 'see you tomorrow' into Italian": a language tutor shares "translate" and
    // "Italian", a share of the request's words high enough to pass any floor.
    const chance = unsure([
      ['language-learning', 0.39],
      ['flow-time-based-patterns', 0.27, cut(0.27, 0.39)],
    ]);
    for (const candidate of chance.record!.ranked) candidate.corroborated = false;
    assert.deepEqual(offeredSkills(chance), []);
    const mixed = unsure([
      ['gotrain', 0.35],
      ['luma', 0.3],
      ['time-zones', 0.29],
    ]);
    mixed.record!.ranked[1]!.corroborated = false;
    assert.deepEqual(offeredSkills(mixed), ['gotrain', 'time-zones'], 'the next corroborated candidate takes its place');
  });

  it('nothing when no candidate stands out: ten skills about as relevant say the request is generic', () => {
    const crowd: Array<[string, number]> = Array.from({ length: 12 }, (_, i) => [`skill-${i}`, 0.4 - i * 0.004]);
    assert.deepEqual(offeredSkills(unsure(crowd)), []);
    const standsOut: Array<[string, number]> = [['the-one', 0.55], ...crowd.slice(1)];
    assert.deepEqual(offeredSkills(unsure(standsOut)), ['the-one', 'skill-1']);
  });

  it('the best-ranked skills are offered beside a confident injection, also one the relative cut held back', () => {
    const confident = preflight(
      [
        ['statistical-analysis', 0.28, cut(0.28, 0.46)],
        ['statistical-analyst', 0.2, below(0.2)],
        ['report', 0.46],
      ],
      ['report'],
      false,
    );
    assert.deepEqual(offeredSkills(confident), ['statistical-analysis'], 'below the gate’s absolute minimum is never offered');
    const withStuffed = preflight(
      [
        ['keyword-soup', 0.9, stuffed],
        ['prometheus', 0.88],
        ['slo-implementation', 0.61, cut(0.61, 0.88)],
      ],
      ['prometheus'],
      false,
    );
    assert.deepEqual(offeredSkills(withStuffed), ['slo-implementation'], 'a stuffed skill is never offered');
  });

  it('nothing when a model was asked (it chose)', () => {
    const asked = unsure([['a', 0.4]]);
    asked.record!.model = { asked: true, wouldAsk: true, chose: [] };
    assert.deepEqual(offeredSkills(asked), []);
  });
});

/** The same rule in a door session over a real skill store (the hook's and the MCP server's pre-flight). */
describe('a door session offers no skill a request shares only a word or two with', function () {
  this.timeout(60_000);
  let world: HookWorld;
  let door: DoorSession;
  before(async () => {
    world = makeWorld();
    const folder = path.join(world.toolshedHome, 'skills');
    writeSkill(
      folder,
      'language-tutor',
      'A patient tutor for learning a new language: vocabulary drills, grammar lessons and conversation practice in Spanish, French, German or Italian, with a translation of every new word.',
      '# Tutor\nMARKER-TUTOR-BODY',
    );
    writeSkill(folder, PDF_SKILL.name, PDF_SKILL.description, PDF_SKILL.body);
    writeSkill(folder, 'release-notes', 'Write the release notes for a new version from the merged pull requests and the changelog', '# Notes');
    door = await openDoorSession({ runtime: 'claude', workspaceFolder: world.workspace, home: world.home, env: {}, toolshedHome: world.toolshedHome });
  });
  after(async () => {
    await door.dispose();
    rmSync(world.root, { recursive: true, force: true });
  });

  it('a question no skill serves gets neither text nor an offer, though its two rare words are in a skill’s description', async () => {
    const answer = await door.preflight('translate "see you tomorrow" into Italian');
    assert.deepEqual(answer.injected, []);
    assert.deepEqual(answer.offered, [], 'the tutor was offered: "translate" and "Italian" alone made it relevant');
    assert.equal(answer.context, '');
  });

  it('a request that names what the skill is for still gets it', async () => {
    const answer = await door.preflight('vocabulary drills and grammar lessons to learn Italian');
    assert.deepEqual(
      answer.injected.map((i) => i.name),
      ['language-tutor'],
    );
    assert.match(answer.context, /MARKER-TUTOR-BODY/);
  });
});
