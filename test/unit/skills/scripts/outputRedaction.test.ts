import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { nodeProcesses } from '../../../../src/core/platform/nodeProcesses';
import { runProcess } from '../../../../src/core/skills/scripts/processRunner';
import { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from '../../../../src/core/skills/scripts/scriptOutput';
import { formatScriptOutcome } from '../../../../src/core/skills/scripts/scriptInvocation';
import { scriptPlan, scriptTool } from './helpers';
import { tempFolder } from '../../../tempFolder';

/** A GitHub-format token whose 36-character body is upper case and digits (the filler around it is lower case). */
const token = fc.stringMatching(/^[A-Z0-9]{36}$/).map((body) => ({ body, text: `ghp_${body}` }));
const filler = fc.array(fc.constantFrom('build ', 'ok ', 'step done\n', 'x', 'ready. ', '\n'), { maxLength: 400 }).map((words) => words.join(''));

/** Whether any 10 characters in a row of the token's body are in the text. */
function leaksPartOf(text: string, body: string): string | undefined {
  for (let i = 0; i + 10 <= body.length; i++) if (text.includes(body.slice(i, i + 10))) return body.slice(i, i + 10);
  return undefined;
}

describe('skill scripts: output is redacted before it is capped', () => {
  it('property: a token straddling the cap (or the end of what is kept), after other tokens, shows no part of itself', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 2000 }),
        fc.array(token, { maxLength: 40 }),
        filler,
        token,
        fc.integer({ min: 1, max: 35 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 20 }),
        (cap, earlier, words, straddling, inside, atKeptEnd, chunkSizes) => {
          // Earlier tokens (whole) shrink when redacted, pulling later text under the cap.
          const at = (atKeptEnd ? cap + 4096 : cap) - inside;
          const lines = earlier.map((t) => `export T=${t.text}\n`).slice(0, Math.floor((at - 1) / 50));
          const head = `${lines.join('')}${words}`.slice(0, at - 1);
          const text = `${head.padEnd(at - 1, 'y')} ${straddling.text} and the rest of the log\n`;
          const out = new CappedOutput(cap);
          const bytes = new TextEncoder().encode(`${text}${'z'.repeat(5000)}`);
          for (let offset = 0, i = 0; offset < bytes.length; i++) {
            const size = chunkSizes[i % chunkSizes.length]!;
            out.push(bytes.subarray(offset, offset + size));
            offset += size;
          }
          const shown = out.text();
          for (const t of [...earlier.slice(0, lines.length), straddling]) {
            const leak = leaksPartOf(shown, t.body);
            assert.equal(leak, undefined, `"${leak}" of ${t.text} is shown:\n${shown.slice(-300)}`);
          }
          assert.ok(new TextEncoder().encode(shown.replace(/\n\[… \d+ bytes cut\]$/, '')).byteLength <= cap);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a real script printing a token across the 64 KB cap shows none of it', async () => {
    const secret = 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const program = `process.stdout.write('a '.repeat(${(DEFAULT_OUTPUT_CAP_BYTES - 21) / 2}) + ' ${secret} done\\n'.repeat(3))`;
    const outcome = await runProcess(
      nodeProcesses,
      { command: process.execPath, args: ['-e', program], cwd: tempFolder('toolshed-cap-'), env: {} },
      { timeoutMs: 20_000 },
    );
    assert.equal(outcome.exitCode, 0);
    const tool = scriptTool({
      toolName: 'log_dump',
      skillName: 'log',
      skillFolder: '/skills/log',
      skillFile: '/skills/log/SKILL.md',
      file: '/skills/log/scripts/dump.js',
      relativePath: 'scripts/dump.js',
      description: 'Dump the log',
    });
    const { text } = formatScriptOutcome(scriptPlan(tool, { program: process.execPath }), outcome, 20_000);
    assert.equal(leaksPartOf(text, secret.slice(4)), undefined, text.slice(-200));
    assert.match(text, /\[REDACTED_TOKEN\]/);
  });
});
