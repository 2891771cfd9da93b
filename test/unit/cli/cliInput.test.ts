import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { readInputFile } from '../../../src/cli/commands/cliInput';
import { cli } from './helpers';
import { tempFolder } from '../../tempFolder';

const TOOLS = [
  { name: 'github_create_issue', description: 'Create a new issue in a GitHub repository', inputSchema: { type: 'object' } },
  { name: 'weather_forecast', description: 'Get the weather forecast for a city', inputSchema: { type: 'object' } },
];
/** C0/C1 controls, DEL, line separators and bidi overrides: what must never reach a terminal raw. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("CLI input: options, files and lines a user or a pack's CI gets wrong", () => {
  let dir: string;
  let tools: string;
  let pack: string;
  before(() => {
    dir = tempFolder('toolshed-cli-input-');
    tools = path.join(dir, 'tools.jsonl');
    writeFileSync(tools, TOOLS.map((t) => JSON.stringify(t)).join('\n'));
    pack = path.join(dir, 'pack');
    mkdirSync(pack);
    writeFileSync(
      path.join(pack, 'triage.skill.md'),
      '---\nname: triage-issues\ntitle: Triage issues\ntrigger: when triaging github issues\nsteps:\n  - Label it.\n---\n',
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('an unknown option is refused with exit 2 and the usage line, never taken as words of the request', async () => {
    const cases: Array<[string[], string, string]> = [
      [['search', 'tools', '--tools', tools, '--bogus', 'open an issue'], '--bogus', 'Usage: toolshed search tools'],
      [['preflight', 'tools', '--tools', tools, '--embedder', 'bundled', 'open an issue'], '--embedder', 'Usage: toolshed preflight tools'],
      [['preflight', 'tools', '--tools', tools, '--max-tools', '3', 'open an issue'], '--max-tools', 'Usage: toolshed preflight tools'],
      [['search', 'skills', '--packs', pack, '--lmit', '3', 'triage'], '--lmit', 'Usage: toolshed search skills'],
    ];
    for (const [argv, option, usage] of cases) {
      const out = await cli(...argv);
      assert.equal(out.code, 2, `${argv.join(' ')}: ${out.all}`);
      assert.ok(out.err.includes(`unknown option ${option}`), out.err);
      assert.ok(out.err.includes(usage), out.err);
      assert.equal(out.out, '', 'no result printed');
    }
  });

  it('any option name a command does not have is refused (generated names)', async () => {
    const known = new Set(['tools', 'search-type', 'limit', 'engine', 'embedder', 'embedder-model', 'embedder-timeout', 'allow-remote-embedder', 'help']);
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).filter((name) => !known.has(name)),
        fc.boolean(),
        async (name, inline) => {
          const option = inline ? `--${name}=1` : `--${name}`;
          const out = await cli('search', 'tools', '--tools', tools, option, 'weather', 'forecast');
          assert.equal(out.code, 2, out.all);
          assert.ok(out.err.includes(`unknown option --${name}`), out.err);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('`toolshed preflight|bench|search --help` print their subcommands', async () => {
    for (const [group, subcommands] of [
      ['preflight', ['preflight tools', 'preflight skills']],
      ['bench', ['bench tools', 'bench skills', 'bench turn-economy']],
      ['search', ['search tools', 'search skills']],
    ] as const) {
      const out = await cli(group, '--help');
      assert.equal(out.code, 0, out.all);
      for (const sub of subcommands) assert.ok(out.out.includes(`toolshed ${sub}`), `${group} --help lists ${sub}: ${out.out}`);
      assert.doesNotMatch(out.all, /unknown command/);
      const bare = await cli(group);
      assert.equal(bare.code, 2);
      assert.ok(bare.err.includes(`toolshed ${subcommands[0]}`), bare.err);
    }
  });

  it('a missing --packs folder and a file given as a pack are errors (exit 2), not words of the request or an empty pack', async () => {
    const missing = await cli('search', 'skills', '--packs', pack, path.join(dir, 'no-such-pack'), 'triage', 'issues');
    assert.equal(missing.code, 2, missing.all);
    assert.match(missing.err, /--packs .*no-such-pack: no such folder/);
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'not a pack');
    for (const command of [
      ['search', 'skills'],
      ['preflight', 'skills'],
    ]) {
      const out = await cli(...command, '--packs', file, 'triage', 'issues');
      assert.equal(out.code, 2, out.all);
      assert.match(out.err, /notes\.txt is not a folder/);
    }
  });

  it('a folder, a FIFO or a device given as input is refused before it is read', async function () {
    const fifo = path.join(dir, 'catalog.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [file, kind] of [
      [dir, 'a folder'],
      [fifo, 'a FIFO'],
      ['/dev/zero', 'a device'],
    ] as const) {
      const out = await cli('search', 'tools', '--tools', file, 'weather');
      assert.equal(out.code, 2, out.all);
      assert.ok(out.err.includes(`is ${kind}; give a regular file`), out.err);
    }
    const queries = await cli('bench', 'tools', '--tools', tools, '--queries', '/dev/zero');
    assert.equal(queries.code, 2, queries.all);
    assert.match(queries.err, /--queries \/dev\/zero is a device/);
  });

  it('an input over the size cap is refused with its size and the limit', () => {
    const big = path.join(dir, 'big.jsonl');
    writeFileSync(big, 'x'.repeat(3 * 2 ** 20));
    assert.throws(() => readInputFile(big, '--tools', 2 ** 20), /--tools .*big\.jsonl is 3\.0 MB; the limit is 1 MB/);
    assert.equal(readInputFile(tools, '--tools').toString('utf8').split('\n').length, 2);
  });

  it('a null line is reported with its file and line number', async () => {
    const file = path.join(dir, 'null.jsonl');
    writeFileSync(file, `${JSON.stringify(TOOLS[0])}\n\nnull\n`);
    await assert.rejects(cli('search', 'tools', '--tools', file, 'weather'), /null\.jsonl:3: expected a JSON object, got null/);
  });

  it('control characters of a bad line are escaped in the message (generated lines)', async () => {
    const file = path.join(dir, 'hostile.jsonl');
    const hostile = fc
      .tuple(fc.string(), fc.constantFrom('\u001b[2J', '\r', '\u0007', '\u202e', '\u0085', '\u001b]0;title\u0007'), fc.string())
      .map(([a, control, b]) => `${a}${control}${b}`.replace(/\n/g, ' '))
      .filter((line) => {
        try {
          const value: unknown = JSON.parse(line.trim());
          return !value || typeof value !== 'object' || Array.isArray(value);
        } catch {
          return line.trim().length > 0;
        }
      });
    await fc.assert(
      fc.asyncProperty(hostile, async (line) => {
        writeFileSync(file, `${JSON.stringify(TOOLS[0])}\n${line}\n`);
        const error = await cli('search', 'tools', '--tools', file, 'weather').then(
          () => undefined,
          (e: Error) => e,
        );
        assert.ok(error, 'a bad line is an error');
        assert.match(error.message, /hostile\.jsonl:2: /);
        assert.doesNotMatch(error.message, RAW_CONTROL, JSON.stringify(error.message));
      }),
      { numRuns: 40 },
    );
  });

  it('a tool name given on more than one line is reported on stderr with the lines', async () => {
    const file = path.join(dir, 'dupes.jsonl');
    writeFileSync(file, [TOOLS[0], TOOLS[1], { ...TOOLS[0], description: 'Open an issue on GitHub' }].map((t) => JSON.stringify(t)).join('\n'));
    const out = await cli('search', 'tools', '--tools', file, 'open an issue on github');
    assert.equal(out.code, 0, out.all);
    assert.match(out.err, /1 tool name\(s\) given more than once, the last line of each is used: "github_create_issue" \(lines 1, 3\)/);
  });
});
