import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { validateAgainstSchema } from '../../../src/core/schema/jsonSchemaSubset';
import {
  describeWithExamples,
  loadToolExampleFiles,
  MAX_EXAMPLES_FILE_BYTES,
  orderExamples,
  parseToolExamplesFile,
  renderExamples,
  resolveToolExamples,
} from '../../../src/core/tools/examples/toolExamples';
import type { ExampleSources } from '../../../src/core/tools/examples/toolExamples';
import { BUILTIN_TOOL_EXAMPLES } from '../../../src/core/tools/examples/builtinToolExamples';
import { toolExamplesConfigSchema } from '../../../src/core/config/settingsSchema';
import type { FileSystemPort } from '../../../src/core/platform/ports';
import { makeService } from './helpers';

const schema = {
  type: 'object',
  properties: { path: { type: 'string' }, lines: { type: 'integer', minimum: 1 }, mode: { enum: ['a', 'b'] } },
  required: ['path'],
  additionalProperties: false,
};
const ex = (args: Record<string, unknown>, tags: string[] = [], description?: string) => ({ args, tags, description });

describe('tool use examples', () => {
  it('precedence: settings > files > tool > built-in; the highest source with a valid example wins whole', () => {
    const sources: ExampleSources = { settings: { t: [ex({ path: 's' })] }, files: { t: [ex({ path: 'f' })] }, builtin: { t: [ex({ path: 'b' })] } };
    const pick = (s: ExampleSources, own = [ex({ path: 'o' })]) => resolveToolExamples('t', own, schema, s, 3);
    assert.deepEqual([pick(sources).source, pick(sources).examples[0].args.path], ['settings', 's']);
    assert.equal(pick({ ...sources, settings: {} }).source, 'file');
    assert.equal(pick({ builtin: sources.builtin, settings: {}, files: {} }).source, 'tool');
    assert.equal(pick({ builtin: sources.builtin, settings: {}, files: {} }, []).source, 'builtin');
    // An override whose only example is invalid does not blank the tool's own examples.
    const invalid = resolveToolExamples('t', [ex({ path: 'o' })], schema, { settings: { t: [ex({ nope: 1 })] } }, 3);
    assert.equal(invalid.source, 'tool');
    assert.equal(invalid.problems.length, 1);
    assert.equal(invalid.problems[0].source, 'settings');
  });

  it('validates args against the inputSchema; invalid ones are reported and not rendered', () => {
    const result = resolveToolExamples(
      't',
      [ex({ path: 'ok' }), ex({ lines: 2 }), ex({ path: 1 }), ex({ path: 'x', lines: 0 }), ex({ path: 'x', mode: 'c' }), ex({ path: 'x', extra: true })],
      schema,
      {},
      10,
    );
    assert.deepEqual(
      result.examples.map((e) => e.args),
      [{ path: 'ok' }],
    );
    assert.equal(result.problems.length, 5);
    assert.match(
      result.problems.map((p) => p.message).join('\n'),
      /args\.path is required[\s\S]*must be string[\s\S]*must be ≥ 1[\s\S]*must be one of[\s\S]*not a known parameter/,
    );
  });

  it('JSON-Schema subset: BFCL spellings, nested arrays, anyOf', () => {
    assert.deepEqual(
      validateAgainstSchema(
        { a: 1.5, b: [{ c: 'x' }] },
        { type: 'dict', properties: { a: { type: 'float' }, b: { type: 'array', items: { type: 'object', required: ['c'] } } } },
      ),
      [],
    );
    assert.equal(
      validateAgainstSchema({ b: [{}] }, { type: 'object', properties: { b: { type: 'array', items: { type: 'object', required: ['c'] } } } })[0].path,
      'args.b[0].c',
    );
    assert.deepEqual(validateAgainstSchema({ v: 'x' }, { properties: { v: { anyOf: [{ type: 'integer' }, { type: 'string' }] } } }), []);
    assert.equal(validateAgainstSchema({ v: true }, { properties: { v: { anyOf: [{ type: 'integer' }, { type: 'string' }] } } }).length, 1);
  });

  it('orders minimal → common → untagged → edge-case and caps at the maximum', () => {
    const ordered = orderExamples([ex({ path: '1' }, ['edge-case']), ex({ path: '2' }), ex({ path: '3' }, ['common']), ex({ path: '4' }, ['minimal'])]);
    assert.deepEqual(
      ordered.map((e) => e.args.path),
      ['4', '3', '2', '1'],
    );
    const capped = resolveToolExamples('t', ordered, schema, {}, 3);
    assert.deepEqual(
      capped.examples.map((e) => e.args.path),
      ['4', '3', '2'],
    );
  });

  it('renders compact YAML under the description, descriptions optional', () => {
    const examples = [ex({ path: 'src/a.ts', lines: 3 }, ['minimal'], 'Read the start'), ex({ path: 'b: c' })];
    assert.equal(renderExamples(examples, true), 'Examples:\n- { path: src/a.ts, lines: 3 }  # Read the start\n- { path: "b: c" }');
    assert.equal(renderExamples(examples, false), 'Examples:\n- { path: src/a.ts, lines: 3 }\n- { path: "b: c" }');
    const config = toolExamplesConfigSchema.parse({});
    assert.equal(describeWithExamples('Reads files.', examples, config), `Reads files.\n\n${renderExamples(examples, true)}`);
    assert.equal(describeWithExamples('Reads files.', examples, { ...config, enabled: false }), 'Reads files.');
    assert.equal(describeWithExamples('Reads files.', examples, { ...config, maxExamplesPerTool: 1 }).split('\n- ').length, 2);
  });

  it('parses *.tools.yaml example files and reports bad ones', async () => {
    const good = 'examples:\n  t:\n    - args: { path: x }\n      tags: [minimal]\n';
    assert.deepEqual(parseToolExamplesFile(good, 'a.tools.yaml').examples.t[0], { args: { path: 'x' }, tags: ['minimal'] });
    assert.match(parseToolExamplesFile('examples: [1]', 'b.tools.yaml').problems[0], /b\.tools\.yaml: expected/);
    assert.match(parseToolExamplesFile('a: [', 'c.tools.yaml').problems[0], /not valid YAML/);
    const files: Record<string, string> = { '/a.tools.yaml': good, '/b.tools.yaml': 'examples:\n  t:\n    - args: { path: y }\n' };
    const fs: FileSystemPort = {
      readFile: async (p) => {
        if (!(p in files)) throw new Error('ENOENT');
        return new TextEncoder().encode(files[p]);
      },
      readDirectory: async () => undefined,
      stat: async () => undefined,
    };
    const loaded = await loadToolExampleFiles(fs, ['/a.tools.yaml', '/b.tools.yaml', '/missing.tools.yaml']);
    assert.deepEqual(
      loaded.examples.t.map((e) => e.args.path),
      ['x', 'y'],
    );
    assert.equal(loaded.problems.length, 1);
  });

  it('a tool listed twice keeps its last list, with a problem naming it; a self-referencing alias is a problem, not a hang', () => {
    const parsed = parseToolExamplesFile(
      'examples:\n  t:\n    - args: { path: x }\n  u:\n    - args: { path: u }\n  t:\n    - args: { path: y }\n',
      'd.tools.yaml',
    );
    assert.deepEqual(
      parsed.examples.t.map((e) => e.args.path),
      ['y'],
    );
    assert.deepEqual(
      parsed.examples.u.map((e) => e.args.path),
      ['u'],
    );
    assert.equal(parsed.problems.length, 1);
    assert.match(parsed.problems[0], /d\.tools\.yaml: a tool is listed twice under examples \("t"\); the last list of each is used/);
    assert.match(parseToolExamplesFile('examples: &a { t: [*a] }', 'e.tools.yaml').problems[0] ?? '', /e\.tools\.yaml: (not valid YAML|expected)/);
  });

  it('property: any text parses without an exception, every problem naming the file', () => {
    const yamlish = fc
      .array(fc.constantFrom('examples:', '\n', '  ', '- ', 'args: ', '{', '}', '[', ']', '&a ', '*a', 't:', '"', ':', '#', 'x', '\t', '!!map '), {
        maxLength: 40,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(yamlish, fc.string()), (text) => {
        const parsed = parseToolExamplesFile(text, 'p.tools.yaml');
        for (const problem of parsed.problems) assert.ok(problem.startsWith('p.tools.yaml: '), problem);
      }),
      { numRuns: 500 },
    );
  });

  it('a *.tools.yaml over 1 MiB is refused unread, with a problem saying how large it is', async () => {
    let reads = 0;
    const fs: FileSystemPort = {
      readFile: async () => {
        reads++;
        return new TextEncoder().encode('examples: {}');
      },
      readDirectory: async () => undefined,
      stat: async () => ({ kind: 'file', size: MAX_EXAMPLES_FILE_BYTES + 1, mtimeMs: 0 }),
    };
    const loaded = await loadToolExampleFiles(fs, ['/huge.tools.yaml']);
    assert.equal(reads, 0);
    assert.deepEqual(loaded.examples, {});
    assert.match(loaded.problems[0] ?? '', /\/huge\.tools\.yaml: too large \(1048577 bytes; the limit is 1048576\)/);
  });

  it('examples count in the record hash and reach the rendered definitions through the service', async () => {
    const tool = { name: 't', description: 'Reads.', inputSchema: schema, examples: [ex({ path: 'own' }, ['minimal'])] };
    const { service } = await makeService({ tools: [tool], toolSearch: { alwaysLoadedPatterns: ['t'] } });
    const before = service.registry()[0].recordHash;
    const run = await service.startRun();
    assert.match(run.toolDefinitions()[0].description, /Reads\.\n\nExamples:\n- \{ path: own \}/);
    const report = service.updateConfig({ toolExamples: { overrides: { t: [ex({ path: 'mine' })] } } });
    assert.equal(report.updated, 1);
    assert.notEqual(service.registry()[0].recordHash, before);
    assert.match((await service.startRun()).toolDefinitions()[0].description, /path: mine/);
    service.setExampleFiles({ t: [ex({ path: 'file' })] });
    assert.match((await service.startRun()).toolDefinitions()[0].description, /path: mine/); // settings still win
    service.updateConfig({ toolExamples: { overrides: {} } });
    assert.match((await service.startRun()).toolDefinitions()[0].description, /path: file/);
  });

  it('a tool named like an Object.prototype member (constructor, toString, __proto__) is indexed and found, with its own examples only', async () => {
    const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
    const tools = names.map((name) => ({ name, description: `Frobnicates the ${name} widget.`, inputSchema: schema }));
    const { service } = await makeService({ tools, toolExamples: { overrides: { toString: [ex({ path: 'mine' })] } } });
    assert.deepEqual(
      service
        .registry()
        .map((r) => [r.name, r.examples.length])
        .sort(),
      [
        ['__proto__', 0],
        ['constructor', 0],
        ['hasOwnProperty', 0],
        ['toString', 1],
      ],
    );
    const found = await service.withRun({}, (run) => {
      const result = run.search({ query: 'frobnicate widget', include_always_loaded: true });
      return result.ok ? result.output.tools.map((t) => t.name).sort() : [];
    });
    assert.deepEqual(found, [...names].sort());
  });

  it('built-in examples are valid against a plausible schema and only used when valid', () => {
    for (const [name, examples] of Object.entries(BUILTIN_TOOL_EXAMPLES)) {
      assert.ok(examples.length > 0 && examples.length <= 3, name);
      for (const e of examples) assert.equal(typeof e.args, 'object');
    }
    const readFile = {
      type: 'object',
      properties: { filePath: { type: 'string' }, startLine: { type: 'number' }, endLine: { type: 'number' } },
      required: ['filePath'],
    };
    assert.equal(resolveToolExamples('copilot_readFile', undefined, readFile, { builtin: BUILTIN_TOOL_EXAMPLES }, 3).examples.length, 1);
    const changed = { ...readFile, required: ['filePath', 'startLine', 'endLine'] };
    const stale = resolveToolExamples('copilot_readFile', undefined, changed, { builtin: BUILTIN_TOOL_EXAMPLES }, 3);
    assert.equal(stale.examples.length, 0);
    assert.equal(stale.problems[0].source, 'builtin');
  });
});
