import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineIndex } from '../../../src/core/skills/packs/document/lineIndex';

/** Line and column of `offset` counted the plain way: every `\n` before it starts a line. */
function reference(text: string, offset: number): { line: number; column: number } {
  const clamped = Math.min(Math.max(offset, 0), text.length);
  const before = text.slice(0, clamped);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: clamped - (lastBreak + 1) + 1 };
}

describe('LineIndex: positions found as far as they are asked for', () => {
  it('answers every question, in any order, as counting the whole text would (fast-check)', () => {
    const text = fc.array(fc.constantFrom('a', 'bc', ' ', '\n', '\r\n', '\n\n', 'x'.repeat(5000)), { maxLength: 30 }).map((parts) => parts.join(''));
    const question = fc.oneof(
      fc.record({ kind: fc.constant('position' as const), at: fc.integer({ min: -2, max: 40_000 }) }),
      fc.record({ kind: fc.constant('lineSpan' as const), at: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ kind: fc.constant('lineCount' as const), at: fc.constant(0) }),
    );
    fc.assert(
      fc.property(text, fc.array(question, { maxLength: 12 }), (source, questions) => {
        const index = new LineIndex(source);
        const lines = source.split('\n');
        for (const { kind, at } of questions) {
          if (kind === 'position') assert.deepEqual(index.position(at), reference(source, at));
          else if (kind === 'lineCount') assert.equal(index.lineCount, lines.length);
          else {
            const line = Math.min(Math.max(at, 1), lines.length);
            const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
            const content = (lines[line - 1] ?? '').replace(/\r$/, '');
            assert.deepEqual(index.lineSpan(at), { line, column: 1, endLine: line, endColumn: content.length + 1 }, `line ${at} from ${start}`);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
