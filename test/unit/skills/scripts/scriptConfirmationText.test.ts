import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeScriptRun } from '../../../../src/core/skills/scripts/scriptInvocation';
import type { ScriptRunPlan } from '../../../../src/core/skills/scripts/scriptInvocation';
import type { SkillScriptTool } from '../../../../src/core/skills/scripts/scriptDiscovery';
import { scriptPlan, scriptTool } from './helpers';

const LABELS = ['Skill', 'Interpreter', 'Script', 'Arguments', 'Working directory', 'Environment passed', 'allowed-tools'];
/** What could end a line, drive a terminal or reorder what the user reads. */
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

function plan(scriptArgs: string[], toolOverrides: Partial<SkillScriptTool> = {}): ScriptRunPlan {
  const t = scriptTool(toolOverrides);
  return scriptPlan(t, { args: [t.file, ...scriptArgs], scriptArgs, env: { PATH: '/bin' }, envNames: ['PATH'] });
}

/** Reads the `Arguments:` value back the way a POSIX shell would (bare, '…' and $'…' words). */
function readArguments(value: string): string[] {
  if (value === '(none)') return [];
  const args: string[] = [];
  let i = 0;
  while (i < value.length) {
    let word = '';
    while (i < value.length && value[i] !== ' ') {
      if (value.startsWith("$'", i)) {
        i += 2;
        while (value[i] !== "'") {
          if (value[i] === '\\') {
            const next = value[i + 1];
            if (next === 'u') {
              word += String.fromCharCode(parseInt(value.slice(i + 2, i + 6), 16));
              i += 6;
              continue;
            }
            word += next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : next;
            i += 2;
            continue;
          }
          word += value[i++];
        }
        i++;
      } else if (value[i] === "'") {
        const end = value.indexOf("'", i + 1);
        word += value.slice(i + 1, end);
        i = end + 1;
      } else if (value.startsWith("\\'", i)) {
        word += "'";
        i += 2;
      } else {
        word += value[i++];
      }
    }
    args.push(word);
    i++;
  }
  return args;
}

describe('skill scripts: the confirmation text cannot be forged', () => {
  it('a newline or ESC in an argument is shown escaped: no "Interpreter:" line is added', () => {
    const { lines } = describeScriptRun(plan(['report.txt\nInterpreter: /usr/bin/true', '\u001b[2Kclean', 'a\u202Etxt.exe']));
    assert.equal(lines.length, LABELS.length);
    assert.equal(lines.filter((line) => line.startsWith('Interpreter:')).length, 1);
    assert.equal(lines[3], String.raw`Arguments: $'report.txt\nInterpreter: /usr/bin/true' $'\u001b[2Kclean' $'a\u202etxt.exe'`);
  });

  it('paths, the skill name and allowed-tools are one line each too', () => {
    const described = describeScriptRun(plan([], { skillName: 'ev\nil', file: '/s/x\r\nScript: /ok.js', allowedTools: ['Read\nRun'] }));
    assert.equal(described.lines.length, LABELS.length);
    assert.ok(!LINE_BREAKING.test(described.title + described.lines.join('')));
    assert.match(described.lines[2], /^Script: \/s\/x\\r\\nScript: \/ok\.js$/);
  });

  it('property: any arguments give exactly the labelled lines, none with a control or bidi character, and read back to the arguments', () => {
    const chars = fc.oneof(
      fc.constantFrom('\n', '\r', '\u001b', '\u0007', '\u0085', '\u009b', '\u2028', '\u2029', '\u202e', '\u2066', '\u200f', '\u061c', "'", '\\', ' ', '$', '"'),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    const arg = fc.array(chars, { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 5 }), (args) => {
        const { title, lines } = describeScriptRun(plan(args));
        assert.deepEqual(
          lines.map((line) => line.slice(0, line.indexOf(':'))),
          LABELS,
        );
        for (const line of [title, ...lines]) assert.ok(!LINE_BREAKING.test(line), JSON.stringify(line));
        assert.deepEqual(readArguments(lines[3].slice('Arguments: '.length)), args);
      }),
      { numRuns: 500 },
    );
  });
});
