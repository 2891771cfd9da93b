import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { ASSIGNMENT_PIECES } from '../../fixtures/hostileRedactionPieces';
import { readRedactionCorpus, scoreRedaction } from '../../../bench/redactionCorpus';
import { makeService, pack, stepSkill, tempDir, writeTree } from './helpers';
import { redact, REDACTED_EMAIL, REDACTED_PHONE, REDACTED_TOKEN } from '../../../src/core/privacy/redaction';

/** Realistic-looking fake secrets (none of them valid). */
const SECRETS: Array<[string, string]> = [
  ['github classic', 'ghp_4fK9xQ2mZ7pL1sV8bN3cR6tY0wE5uI2oA9dH'],
  ['github oauth', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['github fine-grained', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV'],
  ['openai', 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f'],
  ['openai legacy', 'sk-3xAmPl3K3yTh4tL00ksR34lButIsN0tR34l12345678'],
  ['anthropic', 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbA-zyxwvutsrqponmlk-AAAA'],
  ['aws access key', 'AKIAIOSFODNN7EXAMPLE'],
  ['slack bot', 'xoxb-2048204820-4096409640964-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8'],
  ['google', 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY'],
  ['stripe', 'sk_live_51HxYzAbCdEfGhIjKlMnOpQr'],
  ['jwt', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'],
  ['gitlab', 'glpat-xYz12AbC34dEf56GhI78jK'],
  ['npm', 'npm_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6'],
];

describe('skills: redaction', () => {
  for (const [label, secret] of SECRETS) {
    it(`redacts a ${label} token inside a step`, () => {
      const out = redact(`Run: curl -H "X-Key: ${secret}" https://api.example.com/v1/items`);
      assert.ok(!out.includes(secret), out);
      assert.ok(out.includes(REDACTED_TOKEN), out);
      assert.ok(out.startsWith('Run: curl'), out);
    });
  }

  it('redacts bearer tokens, assignments, private keys and URL credentials', () => {
    assert.equal(redact('Authorization: Bearer abcDEF123456.ghiJKL789'), `Authorization: Bearer ${REDACTED_TOKEN}`);
    assert.equal(redact('api_key=9f8e7d6c5b4a39281726'), `api_key=${REDACTED_TOKEN}`);
    assert.equal(redact('password: "correct-horse-battery"'), `password: "${REDACTED_TOKEN}"`);
    assert.equal(redact('AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'), `AWS_SECRET_ACCESS_KEY=${REDACTED_TOKEN}`);
    assert.equal(redact('-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----'), REDACTED_TOKEN);
    assert.equal(redact('postgres://admin:s3cr3t@db.internal:5432/app'), `postgres://${REDACTED_TOKEN}@db.internal:5432/app`);
  });

  it('redacts e-mails and phone numbers', () => {
    assert.equal(redact('Mail jane.doe+ops@example.co.uk.'), `Mail ${REDACTED_EMAIL}.`);
    for (const phone of ['+1 (555) 123-4567', '(555) 123-4567', '555-123-4567', '+44 20 7946 0958', '+33 1 23 45 67 89', '+4915112345678']) {
      assert.equal(redact(`Call ${phone} now`), `Call ${REDACTED_PHONE} now`, phone);
    }
  });

  it('strips user-specific URL query strings but keeps ordinary ones', () => {
    assert.equal(redact('Open https://app.example.com/reset?token=abc123&email=a%40b.c.'), 'Open https://app.example.com/reset.');
    assert.equal(redact('https://s3.amazonaws.com/b/k?X-Amz-Signature=deadbeef&X-Amz-Credential=x'), 'https://s3.amazonaws.com/b/k');
    assert.equal(redact('See https://docs.example.com/search?q=pagination&page=2'), 'See https://docs.example.com/search?q=pagination&page=2');
    assert.equal(redact('https://github.com/org/repo/pull/42'), 'https://github.com/org/repo/pull/42');
  });

  it('keeps placeholders (instructions, not secrets)', () => {
    for (const text of [
      'API_KEY=${API_KEY}',
      'token: <your-token>',
      'password: process.env.DB_PASSWORD',
      'api_key={{ secrets.KEY }}',
      'Set OPENAI_API_KEY in your environment.',
    ]) {
      assert.equal(redact(text), text);
    }
  });

  it('does not mangle ordinary technical text (false positives)', () => {
    const ordinary = [
      'Upgrade from 1.2.3 to 2.10.0-beta.4 (see CHANGELOG).',
      'Released 2024-01-15, build 20240115.3, at 2024-01-15T10:20:30.123Z.',
      'Commit 3f2a1c9e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed it; short sha 3f2a1c9.',
      'Listen on 127.0.0.1:8080 and 192.168.1.10; timeout 30000 ms; time 12:30:45.',
      'npm install lodash@4.17.21 @types/node@20; git clone git@github.com:org/repo.git',
      'Use tool_search to find mcp_github_create_issue; run `npm test -- --grep "skills"`.',
      'UUID 123e4567-e89b-12d3-a456-426614174000 and ISBN 978-3-16-148410-0.',
      'Steps:\n1. Open the file.\n2. Press Ctrl+Shift+P.\n3. Run "Tasks: Run Test Task".',
      'The password field is required; fill the token input from the secret store.',
    ];
    for (const text of ordinary) assert.equal(redact(text), text);
  });

  it('preserves the structure of numbered steps', () => {
    const steps = '1. Email ops@example.com.\n2. Export TOKEN=ghp_4fK9xQ2mZ7pL1sV8bN3cR6tY0wE5uI2oA9dH.\n3. Done.';
    const out = redact(steps);
    assert.equal(out.split('\n').length, 3);
    assert.ok(out.split('\n').every((line, i) => line.startsWith(`${i + 1}. `)));
  });
});

describe('skills: redaction corpus and hostile input', () => {
  const rows = readRedactionCorpus(path.join(__dirname, '..', '..', '..'));

  it('the labelled corpus holds at least 150 secrets and 150 look-alikes', () => {
    assert.ok(rows.filter((r) => r.label === 'secret').length >= 150);
    assert.ok(rows.filter((r) => r.label === 'benign').length >= 150);
  });

  it('meets the targets: recall >= 98 %, false positives <= 2 %', () => {
    const score = scoreRedaction(rows, redact);
    const missed = score.missed.map((m) => `${m.kind}: ${m.text.slice(0, 80)}`).join('\n');
    const over = score.overRedacted.map((m) => `${m.kind}: ${m.text.slice(0, 60)} => ${m.output.slice(0, 60)}`).join('\n');
    assert.ok(score.recall >= 0.98, `recall ${score.recall}; missed:\n${missed}`);
    assert.ok(score.falsePositiveRate <= 0.02, `false positives ${score.falsePositiveRate}:\n${over}`);
  });

  it('stops over-redacting ordinary keys, prose and coordinates', () => {
    for (const text of [
      'max_tokens: 100000',
      'author: Jane Developer',
      'tokenizer = "cl100k_base"',
      '+48.8566, +2.3522',
      'Basic authentication is disabled.',
      'token_url: https://oauth2.example.com/token',
    ]) {
      assert.equal(redact(text), text);
    }
  });

  it('a command’s password flag is redacted however long a secret before it is (found by the property below)', () => {
    // The flag may stand 200 characters from its command; a 400-character assigned password in
    // between hid `-p…` from the first redaction, and a second one redacted it.
    const text = `mysql password=${'password'.repeat(50)} is -p${'password'.repeat(24)}`;
    const once = redact(text);
    assert.equal(once, `mysql password=${REDACTED_TOKEN} is -p${REDACTED_TOKEN}`);
    assert.equal(redact(once), once);
  });

  // A hang fails on mocha's timeout, naming this test; the time it takes is a bench row
  // (bench/safetyBench.ts, "redaction: hostile text").
  it('property: redaction is idempotent and finishes on hostile text', () => {
    const piece = fc.constantFrom(...ASSIGNMENT_PIECES);
    fc.assert(
      fc.property(fc.array(piece, { minLength: 100, maxLength: 3000, size: 'max' }), fc.integer({ min: 1, max: 40 }), (pieces, repeat) => {
        const text = pieces.join('').repeat(repeat).slice(0, 60_000);
        const once = redact(text);
        assert.equal(redact(once), once);
      }),
      { numRuns: 60 },
    );
  });
});

describe('skills: redaction happens before shortening', () => {
  it('skill_list, skill_search and the directory never show the head of a secret a cut would hide', async () => {
    const root = tempDir();
    // The value starts a few characters before the cut (120 in lists, 300 in search).
    const secretAt = (offset: number) => `${'go '.repeat(offset / 3)}password: "correct horse battery staple" then deploy`;
    writeTree(root, {
      'list.skill.yaml': stepSkill('pack.r.cut_at_list', secretAt(99)),
      'search.skill.yaml': stepSkill('pack.r.cut_at_search', secretAt(279)),
    });
    const { service } = await makeService();
    await service.loadPacks([pack('r', root)]);
    const ctx = { includeWorkspacePacks: true };
    const outputs = [
      await service.list({}, ctx),
      await service.directory({ ...ctx, pinnedNames: ['pack.r.cut_at_list', 'pack.r.cut_at_search'] }),
      await service.search({ query: 'deploy go password' }, ctx),
      await service.search({ query: 'pack', search_type: 'regex' }, ctx),
    ];
    const text = JSON.stringify(outputs);
    assert.ok(text.includes('pack.r.cut_at_list') && text.includes('pack.r.cut_at_search'), text);
    assert.ok(!/correct|horse/.test(text), text);
  });
});
