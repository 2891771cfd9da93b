import * as assert from 'node:assert/strict';
import { proposalToSkillMarkdown, skillMarkdownToCandidate } from '../../../src/core/learning/approval/proposalDocument';
import { extractTraceCandidate } from '../../../src/core/learning/extraction/traceExtractor';
import { PERSONAL, turn } from './helpers';

const candidate = extractTraceCandidate(
  turn('Check the weather forecast in Oslo: then create an issue "quoted"', [
    { tool: 'fixture_weather_forecast', input: { city: 'Oslo' }, ok: true },
    { tool: 'fixture_create_issue', input: { title: 'x' }, ok: true },
  ]),
  PERSONAL,
)!;

describe('proposal as a *.skill.md document (Edit)', () => {
  it('round-trips through the skill parser unchanged, and an edit comes back', () => {
    const text = proposalToSkillMarkdown(candidate);
    const back = skillMarkdownToCandidate(text, '/tmp/pr_x.skill.md', candidate);
    assert.ok('candidate' in back, JSON.stringify(back));
    // Saving the document is the cluster choice: no `cluster:` line = explicitly none ('').
    assert.deepEqual({ ...back.candidate }, { ...candidate, cluster: '' });
    const edited = skillMarkdownToCandidate(
      text.replace(/^title: .*$/m, 'title: Weather to issue').replace('steps:', 'steps:\n  - Check the city name first.'),
      '/tmp/pr_x.skill.md',
      candidate,
    );
    assert.ok('candidate' in edited);
    assert.equal(edited.candidate.title, 'Weather to issue');
    assert.equal(edited.candidate.steps[0], 'Check the city name first.');
    assert.deepEqual(edited.candidate.citations, candidate.citations, "citations stay the original's");
  });

  it('a broken document gives the error to fix, not a half-updated proposal', () => {
    const noSteps = skillMarkdownToCandidate('---\nname: learned.api.x\ntrigger: When x\nsteps: []\n---\n', '/tmp/pr_x.skill.md', candidate);
    assert.ok('error' in noSteps && /steps/.test(noSteps.error), JSON.stringify(noSteps));
    const garbage = skillMarkdownToCandidate('---\n: : :\n---', '/tmp/pr_x.skill.md', candidate);
    assert.ok('error' in garbage);
  });
});
