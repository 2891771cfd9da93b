import * as assert from 'node:assert/strict';
import { extractTraceCandidate } from '../../../src/core/learning/extraction/traceExtractor';
import { followedSkill } from '../../../src/core/learning/extraction/followedSkill';
import { approvedSkillDescription } from '../../../src/core/learning/approval/proposalApproval';
import { restrictedModeLine } from '../../../src/core/trust/restrictedMode';
import { skillSourceFolder } from '../../../src/core/skills/packs/skillSourceFolder';
import { pack, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { makeLearning, PERSONAL, turn } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const weatherCalls = [
  { tool: WEATHER, input: { city: 'Oslo' }, ok: true },
  { tool: WEATHER, input: { city: 'Bergen' }, ok: true },
  { tool: ISSUE, input: { title: 'Weekly forecast' }, ok: true },
];

describe('learning proposes only what is new, and says only what it knows', () => {
  it('a turn that followed an injected pack skill proposes nothing and counts one use of that skill (renewed)', async () => {
    const h = await makeLearning();
    const root = tempDir();
    writeTree(root, {
      'weather.skill.yaml': stepSkill('team.weather.issue', 'Weather summary as an issue', [
        `Call \`${WEATHER}\` for each city.`,
        `Call \`${ISSUE}\` with a summary.`,
      ]),
    });
    await h.service.loadPacks([pack('team', root)]);
    const result = await h.learning.ingest(
      turn('Get the forecast for Oslo and Bergen and open an issue', weatherCalls, { skillsUsed: ['team.weather.issue'] }),
    );
    assert.equal(result.proposal, undefined, 'nothing proposed');
    assert.equal(result.followed, 'team.weather.issue');
    assert.equal(h.learning.proposals().length, 0);
    const counters = h.learning.counters('team.weather.issue');
    assert.equal(counters?.use_count, 1);
    assert.ok((counters?.last_validated ?? 0) > 0, 'the use renews it');
    assert.equal(counters?.helpful, 0, 'a use is not a rating');
  });

  it('a turn that used a skill but did more than its steps still proposes; /learn always proposes', async () => {
    const h = await makeLearning();
    const root = tempDir();
    writeTree(root, { 'weather.skill.yaml': stepSkill('team.weather', 'Weather only', [`Call \`${WEATHER}\` for each city.`]) });
    await h.service.loadPacks([pack('team', root)]);
    const more = await h.learning.ingest(turn('Forecast for Oslo and Bergen, then an issue', weatherCalls, { skillsUsed: ['team.weather'] }));
    assert.ok(more.proposal, 'the issue step is new');
    const forced = await h.learning.ingest(turn('Forecast then issue', weatherCalls, { skillsUsed: ['team.weather', 'unknown-skill'] }), { force: true });
    assert.ok(forced.proposal);
    assert.equal(followedSkill({ citations: { tools: [], files: [] } }, [{ name: 'x', steps: [] }]), undefined, 'a turn without tools follows nothing');
  });

  it('a learned name leaves out a task type that is not known; a known one stays', () => {
    const unknown = extractTraceCandidate(
      turn('echo the greeting back and add two', [
        { tool: 'echo', input: {}, ok: true },
        { tool: 'add', input: {}, ok: true },
      ]),
      PERSONAL,
    )!;
    assert.equal(unknown.task_type, 'unknown');
    assert.match(unknown.name, /^learned\.[a-z0-9-]+$/);
    assert.doesNotMatch(unknown.name, /unknown/);
    const known = extractTraceCandidate(turn('Check the weather in Oslo, then file an issue', weatherCalls), PERSONAL)!;
    assert.match(known.name, /^learned\.api\.[a-z0-9-]+$/);
  });

  it('the approved skill says how it was approved, or nothing', () => {
    assert.equal(approvedSkillDescription('trace', 'chat'), 'Learned from use (trace); approved with the Approve button in chat.');
    assert.equal(approvedSkillDescription('trace', 'skillDirectory'), 'Learned from use (trace); approved in the Skill Directory.');
    assert.equal(approvedSkillDescription('model', undefined), 'Learned from use (model).');
    assert.doesNotMatch(approvedSkillDescription('trace', 'chat'), /editor/);
  });

  it('approval through the port records the channel in the stored skill', async () => {
    const h = await makeLearning();
    const { proposal } = await h.learning.ingest(turn('Check the weather in Oslo and Bergen, then create an issue', weatherCalls));
    const approved = await h.learning.approve(proposal!.id, { via: 'chat' });
    assert.equal(approved.status, 'approved');
    assert.equal(h.service.inspect(proposal!.candidate.name)?.description, 'Learned from use (trace); approved with the Approve button in chat.');
  });
});

describe('Restricted Mode says what is not used', () => {
  it('names skill files by folder and packs from the workspace settings; nothing when the workspace supplies none', () => {
    const line = restrictedModeLine({
      sources: [
        { folder: '.github/skills', files: 5 },
        { folder: 'skills', files: 4 },
      ],
      settingsPacks: ['team'],
    });
    assert.equal(
      line,
      'Restricted Mode: 9 workspace skill files (`.github/skills` 5, `skills` 4) and the skill pack `team` from its settings not used — this workspace is not trusted. Manage Workspace Trust to use them.',
    );
    assert.match(restrictedModeLine({ sources: [], settingsPacks: ['team'] }) ?? '', /^Restricted Mode: the skill pack `team` from its settings not used/);
    assert.equal(restrictedModeLine({ sources: [], settingsPacks: [] }), undefined);
  });

  it('counts a skill file under its agent-skill folder, else its own folder', () => {
    assert.equal(skillSourceFolder('.github/skills/triage/SKILL.md'), '.github/skills');
    assert.equal(skillSourceFolder('.claude/skills/x.skill.md'), '.claude/skills');
    assert.equal(skillSourceFolder('pkg/.agents/skills/a/SKILL.md'), 'pkg/.agents/skills');
    assert.equal(skillSourceFolder('skills\\deploy.skill.yaml'), 'skills');
    assert.equal(skillSourceFolder('top.skill.md'), '.');
  });
});
