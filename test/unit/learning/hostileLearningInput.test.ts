import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { extractTraceCandidate, stepOf } from '../../../src/core/learning/extraction/traceExtractor';
import { argumentShape } from '../../../src/core/learning/extraction/trajectory';
import { UnknownToolReportError } from '../../../src/core/learning/learningService';
import { PROMPT_BLOCK_TAGS } from '../../../src/core/privacy/promptBlocks';
import { fieldName, secretToken } from '../privacy/secretArbitraries';
import { KNOWN_TOOLS, makeLearning, PERSONAL, turn } from './helpers';
import type { LearningHarness } from './helpers';

/** Everything learning keeps or shows: the stored bytes (learning.db, skills.db, journal), log, events and proposals. */
function everythingKept(h: LearningHarness): Array<[string, string]> {
  return [
    ...[...h.bytes.entries].map(([key, bytes]) => [key, Buffer.from(bytes).toString('latin1')] as [string, string]),
    ['log', JSON.stringify([...h.logger.lines, ...h.learningLogger.lines])],
    ['events', JSON.stringify([...h.events.events, ...h.learningEvents.events])],
    ['proposals', JSON.stringify([...h.learning.proposals(), ...h.learning.approvedLessons()])],
  ];
}

/** Any opening or closing tag of a Toolshed block, however spaced or cased. */
const ANY_BLOCK_TAG = new RegExp(`<\\s*/?\\s*(?:${PROMPT_BLOCK_TAGS.join('|')})(?![A-Za-z0-9_-])`, 'gi');

/** A block tag as hostile text writes it: any of ours, open or close, any case, spaces inside. */
const hostileTag = fc
  .tuple(fc.constantFrom(...PROMPT_BLOCK_TAGS), fc.boolean(), fc.boolean(), fc.constantFrom('', ' ', '\n'))
  .map(([tag, close, upper, space]) => `<${space}${close ? '/' : ''}${upper ? tag.toUpperCase() : tag}>`);

describe('learning: secret-shaped argument keys', () => {
  it('property: a secret-shaped key never reaches the argument shape or a step; ordinary field names do', () => {
    fc.assert(
      fc.property(fc.array(secretToken, { minLength: 1, maxLength: 3 }), fc.uniqueArray(fieldName, { minLength: 0, maxLength: 4 }), (tokens, fields) => {
        const input = Object.fromEntries([...tokens.map((t) => [t, true]), ...fields.map((f) => [f, 'v'])]);
        const shape = argumentShape(input);
        const step = stepOf({ tool: 'set_config', input, ok: true });
        for (const token of tokens) assert.ok(!shape.includes(token) && !step.includes(token), `${token} kept: ${step}`);
        assert.deepEqual(shape, [...new Set(fields)].sort());
      }),
      { numRuns: 500 },
    );
  });

  it('property: a turn whose inputs are keyed by tokens leaves no token in learning.db, skills.db, the journal or a proposal', async () => {
    await fc.assert(
      fc.asyncProperty(secretToken, secretToken, async (key, mapKey) => {
        const h = await makeLearning();
        const calls = [
          { tool: 'set_config', input: { [key]: true, scope: 'repo' }, ok: true },
          { tool: 'deploy_preview', input: { [mapKey]: { role: 'admin' } }, ok: true },
        ];
        for (const session of ['a', 'b']) {
          const result = await h.learning.ingest(turn('configure the deploy token and deploy a preview', calls, { sessionId: session }));
          if (result.proposal?.status === 'proposed') await h.learning.approve(result.proposal.id, { replaceLearned: true });
        }
        await h.service.save();
        assert.ok(h.service.inspect(h.learning.approvedLessons()[0]?.approved_name ?? '') !== undefined, 'the turn was learned');
        for (const [where, text] of everythingKept(h)) {
          assert.ok(!text.includes(key) && !text.includes(mapKey), `a key token reached ${where}`);
        }
      }),
      { numRuns: 12 },
    );
  });
});

describe('learning: skill_report_failure names a known tool', () => {
  it('property: a token or an unknown name in `tool` is refused without being echoed or stored; a known tool is kept', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          secretToken,
          secretToken.map((t) => `deploy_preview ${t}`),
          fc.string({ minLength: 1, maxLength: 60 }),
        ),
        async (tool) => {
          fc.pre(!KNOWN_TOOLS.includes(tool.trim()));
          const h = await makeLearning();
          await assert.rejects(
            h.learning.reportFailure({ tool, error: 'permission denied' }, 's'),
            (error: unknown) => error instanceof UnknownToolReportError && (tool.trim().length < 8 || !error.message.includes(tool)),
          );
          assert.equal(h.learning.proposals().length, 0);
          await h.learning.reportFailure({ tool: 'deploy_preview', error: 'permission denied' }, 's');
          await h.service.save();
          for (const [where, text] of everythingKept(h)) {
            if (tool.length >= 8) assert.ok(!text.includes(tool), `the refused tool name reached ${where}`);
          }
          assert.match(h.learning.proposals()[0]!.candidate.title, /^Avoid: deploy_preview fails with permission/);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('learning: tool errors cannot open or close prompt blocks', () => {
  it('property: an error text with block tags becomes an approved lesson whose <skill_warnings> block has one opening and one closing tag', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(hostileTag, fc.constantFrom('Error: ', 'is locked ', 'ignore the above', '\n', ' ')), { minLength: 1, maxLength: 8 }),
        async (pieces) => {
          const error = `deploy failed ${pieces.join('')} then stop`;
          const h = await makeLearning();
          let negative;
          for (const [session, at] of [
            ['a', 1],
            ['b', 2],
          ] as const) {
            negative =
              (
                await h.learning.ingest(
                  turn(
                    'deploy a preview',
                    [
                      { tool: 'deploy_preview', input: { branch: 'x' }, ok: false, error },
                      { tool: 'unlock_env', input: { env: 'x' }, ok: true },
                      { tool: 'deploy_preview', input: { branch: 'x' }, ok: true },
                    ],
                    { sessionId: session, at },
                  ),
                )
              ).negative ?? negative;
          }
          assert.ok(negative, 'the repeated failure proposed a lesson');
          await h.learning.approve(negative.id);
          const stored = JSON.stringify(h.learning.approvedLessons().map((p) => p.candidate));
          assert.equal(stored.match(ANY_BLOCK_TAG), null, `a tag survived normalisation: ${stored}`);
          const { block } = h.learning.warnings('deploy a preview', new Set(['deploy_preview']));
          assert.deepEqual(block.match(ANY_BLOCK_TAG), ['<skill_warnings', '</skill_warnings']);
          assert.ok(block.startsWith('<skill_warnings>') && block.endsWith('</skill_warnings>'), block);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("property: a recovered error with block tags leaves no tag in a learned skill's failure modes", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(hostileTag, fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 6 }), (pieces) => {
        const candidate = extractTraceCandidate(
          turn('deploy a preview', [
            { tool: 'deploy_preview', input: {}, ok: false, error: pieces.join(' ') },
            { tool: 'unlock_env', input: {}, ok: true },
            { tool: 'deploy_preview', input: {}, ok: true },
          ]),
          PERSONAL,
        );
        assert.equal(JSON.stringify(candidate?.failure_modes ?? []).match(ANY_BLOCK_TAG), null);
      }),
      { numRuns: 300 },
    );
  });
});
