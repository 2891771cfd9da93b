import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { KEY_SHAPE_PIECES } from '../../fixtures/hostileRedactionPieces';
import { redact, REDACTED_PHONE } from '../../../src/core/privacy/redaction';

const b64 = (length: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9+/]{${length}}$`));
/** A fake AWS secret access key: 40 base64 characters with upper and lower case and a digit. */
const awsSecret = b64(40).filter((s) => /[A-Z]/.test(s) && /[a-z]/.test(s) && /\d/.test(s));
const awsKeyId = fc.tuple(fc.constantFrom('AKIA', 'ASIA'), fc.stringMatching(/^[A-Z2-7]{16}$/)).map(([p, rest]) => p + rest);
/** The start of a DER private key (RSA, PKCS#8, EC, Ed25519, OpenSSH) and 64-character lines after it. */
const keyBody = fc
  .tuple(
    fc.constantFrom(
      'MIIEowIBAAKCAQEA',
      'MIIEpAIBAAKCAQEA',
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
      'MHcCAQEEI',
      'MIGHAgEAMBMGByqGSM49',
      'MC4CAQAwBQYDK2VwBCIEI',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU',
    ),
    fc.array(b64(64), { minLength: 1, maxLength: 6 }),
    b64(24),
  )
  .map(([prefix, lines, last]) => [`${prefix}${lines[0]!.slice(prefix.length)}`, ...lines.slice(1), last].join('\n'));
/** UK numbers in national form, grouped as written in the UK. */
const ukPhone = fc.oneof(
  fc.tuple(fc.stringMatching(/^0[1-9]\d$/), fc.stringMatching(/^\d{4}$/), fc.stringMatching(/^\d{4}$/)).map((g) => g.join(' ')),
  fc.tuple(fc.stringMatching(/^0[1-9]\d{2}$/), fc.stringMatching(/^\d{3}$/), fc.stringMatching(/^\d{4}$/)).map((g) => g.join(' ')),
  fc.tuple(fc.stringMatching(/^0[1-9]\d{3}$/), fc.stringMatching(/^\d{6}$/)).map((g) => g.join(' ')),
  fc.tuple(fc.stringMatching(/^0[1-9]\d{3}$/), fc.stringMatching(/^\d{3}$/), fc.stringMatching(/^\d{3}$/)).map((g) => g.join(' ')),
);
const prose = fc.constantFrom('', 'Store both now.', 'Then run the deploy.', '# the secret:', 'value:', '|');

describe('redaction: secrets split from their context', () => {
  it('property: an AWS secret access key on a line after (or beside) its key id is redacted', () => {
    fc.assert(
      fc.property(awsKeyId, awsSecret, prose, fc.constantFrom('\n', '\n  ', ' ', ',', ' | ', '\n\n'), (id, secret, words, gap) => {
        const out = redact(`${id}${gap}${words} ${secret}\n`);
        assert.ok(!out.includes(secret) && !out.includes(id), out);
      }),
      { numRuns: 500 },
    );
  });

  it('property: a private-key body without its BEGIN line is redacted, END line or not', () => {
    fc.assert(
      fc.property(keyBody, prose, fc.boolean(), (body, words, end) => {
        const out = redact(`${words}\n${body}${end ? '\n-----END PRIVATE KEY-----' : ''}\nThen restart.`);
        for (const line of body.split('\n')) assert.ok(!out.includes(line), out);
        assert.ok(out.endsWith('Then restart.'), out);
      }),
      { numRuns: 500 },
    );
  });

  it('property: a UK phone number in national form is redacted; other groupings of numbers are not', () => {
    fc.assert(
      fc.property(ukPhone, fc.constantFrom('', 'If the deploy fails:', 'Escalate.', '2.'), (phone, words) => {
        assert.equal(redact(`${words} Call ${phone} now.`), `${words} Call ${REDACTED_PHONE} now.`);
      }),
      { numRuns: 500 },
    );
    for (const text of ['Timings (ms): 012 345 678 901', 'Run `seq 010 100 2000`.', 'Lines 0042 to 0120.', 'Sizes 1024 2048 4096.'])
      assert.equal(redact(text), text);
  });

  // A hang here fails on mocha's timeout, naming this test; how long it takes is a bench row
  // (bench/safetyBench.ts, "redaction: hostile text"), never an assertion.
  it('property: the new rules finish on hostile text built from their own pieces, and a second pass changes nothing', () => {
    const piece = fc.constantFrom(...KEY_SHAPE_PIECES);
    fc.assert(
      fc.property(fc.array(piece, { minLength: 100, maxLength: 4000, size: 'max' }), (pieces) => {
        const text = pieces.join('');
        const once = redact(text);
        assert.equal(redact(once), once);
      }),
      { numRuns: 60 },
    );
  });

  it('a placeholder that gives a later rule its boundary is redacted in the same call (found by the property above)', () => {
    // The phone number's placeholder ends in "]", the boundary a key body needs before it.
    const text = `+7946 00MIIEowIBAAKC${'MII'.repeat(100)}`;
    const once = redact(text);
    assert.equal(once, '[REDACTED_PHONE][REDACTED_TOKEN]');
    assert.equal(redact(once), once);
  });
});
