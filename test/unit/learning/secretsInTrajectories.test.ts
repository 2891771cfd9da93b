import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { depersonalize } from '../../../src/core/learning/extraction/depersonalize';
import { makeLearning, PERSONAL, turn } from './helpers';

/** Fake secrets and personal data of every kind the issue names (none valid). */
const CORPUS = [
  'ghp_4fK9xQ2mZ7pL1sV8bN3cR6tY0wE5uI2oA9dH',
  'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f',
  'AKIAIOSFODNN7EXAMPLE',
  'xoxb-2048204820-4096409640964-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  'glpat-xYz12AbC34dEf56GhI78jK',
  'alice.smith@example.com',
  '+44 20 7946 0958',
  'password s3cr3t-passw0rd',
  '/home/alice/.ssh/id_ed25519',
  '/home/alice/work/shop',
  'C:\\Users\\alice\\secrets.txt',
  '3f2b8c1e-4d5a-4e6f-9a7b-1c2d3e4f5a6b',
  'oauth2:tok3nV4lue@gitlab.example.com',
];
const LEAKS = [...CORPUS.map((c) => c.replace(/^password /, '')), 'alice', 'Bearer abcDEF123456ghiJKL789', 'id_ed25519'];

function requestWith(secret: string): string {
  return `Deploy the preview for alice using token ${secret} and config /home/alice/work/shop/deploy/config.yaml, mail alice.smith@example.com, auth Bearer abcDEF123456ghiJKL789, repo https://oauth2:tok3nV4lue@gitlab.example.com/team/app.git`;
}

describe('secrets in trajectories never reach the stores, the log or a proposal', () => {
  it('every secret of the corpus, in requests, arguments and errors, is absent from learning.db, skills.db, the journal, the log and events', async () => {
    const h = await makeLearning();
    let at = 1;
    for (const secret of CORPUS) {
      const calls = [
        {
          tool: 'deploy_preview',
          input: { token: secret, path: '/home/alice/work/shop/x' },
          ok: false,
          error: `401 Unauthorized for token ${secret} at /home/alice/.ssh/id_ed25519 (alice.smith@example.com)`,
        },
        { tool: 'deploy_login', input: { password: secret }, ok: true },
        { tool: 'deploy_preview', input: { token: secret }, ok: true },
      ];
      for (const session of ['a', 'b']) {
        const result = await h.learning.ingest(turn(requestWith(secret), calls, { sessionId: `${session}${at}`, at: at++ }));
        if (result.proposal && result.proposal.status === 'proposed') await h.learning.approve(result.proposal.id, { replaceLearned: true });
        if (result.negative && result.negative.status === 'proposed') await h.learning.approve(result.negative.id);
      }
      await h.learning.reportFailure({ tool: 'deploy_preview', error: `failed with ${secret}`, note: `ask alice about ${secret}` }, `r${at}`);
    }
    await h.learning.recordOutcome(['learned.api.x'], 'helpful');
    await h.service.save();
    const keys = [...h.bytes.entries.keys()];
    assert.ok(keys.includes('learning.db') && keys.includes('skills.db') && keys.includes('skills.db.learned.jsonl'), keys.join(', '));
    assert.ok(h.learning.approvedLessons().length >= 2, 'something was learned and stored');
    const texts: Array<[string, string]> = [
      ...[...h.bytes.entries].map(([key, bytes]) => [key, Buffer.from(bytes).toString('latin1')] as [string, string]),
      ['log', JSON.stringify([...h.logger.lines, ...h.learningLogger.lines])],
      ['events', JSON.stringify([...h.events.events, ...h.learningEvents.events])],
      ['proposals', JSON.stringify([...h.learning.proposals(), ...h.learning.approvedLessons()])],
    ];
    for (const [where, text] of texts) {
      for (const leak of LEAKS) assert.ok(!text.includes(leak), `"${leak}" found in ${where}`);
    }
  });

  it('property: depersonalize removes the home folder, user name and workspace root from any text around them', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), fc.constantFrom(...CORPUS), (before, after, secret) => {
        const out = depersonalize(`${before} ${secret} ${after}`, PERSONAL);
        return !out.includes('/home/alice') && !/(?<![A-Za-z0-9])alice(?![A-Za-z0-9])/i.test(out) && !out.includes(secret.replace(/^password /, ''));
      }),
      { numRuns: 300 },
    );
  });

  it('workspace paths become relative; ids and URL credentials are dropped', () => {
    assert.equal(depersonalize('open /home/alice/work/shop/src/app.ts now', PERSONAL), 'open src/app.ts now');
    assert.equal(depersonalize('order 3f2b8c1e-4d5a-4e6f-9a7b-1c2d3e4f5a6b and 12345678', PERSONAL), 'order <id> and <id>');
    assert.equal(depersonalize('clone https://bob:hunter22@github.com/org/repo.git', PERSONAL), 'clone https://github.com/org/repo.git');
  });
});
