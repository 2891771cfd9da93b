import * as assert from 'node:assert/strict';
import { decayFactor, HALF_LIFE_DAYS } from '../../../src/core/learning/feedback/decay';
import { adjustedScore, effectivenessPenalty, frameBoost } from '../../../src/core/learning/feedback/effectiveness';
import { failureSignature } from '../../../src/core/learning/feedback/failureSignature';

const DAY = 24 * 60 * 60 * 1000;

describe('typed decay', () => {
  it('halves after one half-life of each task type, is 1 when just used, and 1/4 after two half-lives', () => {
    const now = 1_800_000_000_000;
    for (const [type, days] of Object.entries(HALF_LIFE_DAYS)) {
      assert.equal(decayFactor(type as never, now, now), 1);
      assert.ok(Math.abs(decayFactor(type as never, now - days * DAY, now) - 0.5) < 1e-12, type);
      assert.ok(Math.abs(decayFactor(type as never, now - 2 * days * DAY, now) - 0.25) < 1e-12, type);
    }
    assert.deepEqual(HALF_LIFE_DAYS, { browser: 7, api: 90, code: 180, domain: 365, unknown: 30 });
    assert.ok(Math.abs(decayFactor('browser', now - 14 * DAY, now) - 0.25) < 1e-12);
    assert.equal(decayFactor('code', now + DAY, now), 1, 'a future timestamp does not boost');
  });
});

describe('effectiveness rules (discovery spec §6)', () => {
  it('−0.1 only when the failure ratio is above 0.6 after at least five activations', () => {
    assert.equal(effectivenessPenalty(undefined), 0);
    assert.equal(effectivenessPenalty({ helpful: 0, harmful: 4 }), 0, 'four activations are not enough');
    assert.equal(effectivenessPenalty({ helpful: 0, harmful: 5 }), 0.1);
    assert.equal(effectivenessPenalty({ helpful: 2, harmful: 3 }), 0, 'ratio 0.6 is not above 0.6');
    assert.equal(effectivenessPenalty({ helpful: 1, harmful: 4 }), 0.1);
    assert.equal(effectivenessPenalty({ helpful: 10, harmful: 5 }), 0);
  });

  it('+0.2 when task type, domain or frames match the chat command or detected task type', () => {
    const skill = { task_type: 'code' as const, domain: 'review', frames: ['debug'] };
    assert.equal(frameBoost({ taskType: 'code' }, skill), 0.2);
    assert.equal(frameBoost({ command: 'debug' }, skill), 0.2);
    assert.equal(frameBoost({ command: 'review' }, skill), 0.2);
    assert.equal(frameBoost({ taskType: 'api' }, skill), 0);
    assert.equal(frameBoost({ taskType: 'unknown' }, { ...skill, task_type: 'unknown' }), 0, 'unknown never matches');
    assert.equal(frameBoost(undefined, skill), 0);
    assert.equal(adjustedScore(0.8, { decay: 0.5, boost: 0.2, penalty: 0.1 }), 0.8 * 0.5 + 0.2 - 0.1);
  });
});

describe('failure signatures', () => {
  it('the same failure with different values has one signature; another tool or error class another', () => {
    const a = failureSignature('deploy', 'Tool "deploy" failed: environment \'preview-17\' is locked (lock 8f3a9c2e11)');
    const b = failureSignature('deploy', "environment 'preview-42' is locked (lock 0c1d2e3f4a)");
    assert.equal(a.key, b.key);
    assert.equal(a.errorClass, 'conflict');
    assert.notEqual(failureSignature('other', "environment 'preview-42' is locked").key, a.key);
    assert.notEqual(failureSignature('deploy', 'request timed out after 30s').key, a.key);
  });
});
