import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { SetupError } from '../../../src/core/runtimes/setup/setupPlan';
import { findTable, tomlString } from '../../../src/core/runtimes/setup/tomlTable';
import { homes, setup } from './setupHelpers';

/**
 * Whatever a user already keeps in a runtime's config files survives install + remove: a TOML
 * file byte for byte, a JSON file as the same JSON (setup rewrites it whole, in its own
 * indentation). Generated with fast-check, tables and keys of every shape the files use.
 */

const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/).filter((n) => n !== 'toolshed' && n !== 'mcp_servers' && n !== 'toolshed-gateway');
const text = fc.string({ maxLength: 20, unit: fc.constantFrom('a', 'Z', ' ', '#', '[', ']', '"', "'", '\\', '=', '{', 'é', '\t', '.') });

const tomlValue: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text.map(tomlString),
    text.filter((t) => !t.includes("'")).map((t) => `'${t}'`),
    fc.integer().map(String),
    fc.boolean().map(String),
    text.map((t) => `"""\n[${t.replace(/"/g, '')}]\n# not a comment\n"""`),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[\n  ${items.join(',\n  ')}\n]`),
    fc.array(fc.tuple(name, tie('value')), { maxLength: 2 }).map((pairs) => `{ ${pairs.map(([k, v]) => `${k} = ${v.replace(/\n/g, ' ')}`).join(', ')} }`),
  ),
})).value;

const tomlLine = fc.oneof(
  fc
    .tuple(
      name,
      tomlValue,
      fc.option(
        text.map((t) => `  # ${t}`),
        { nil: '' },
      ),
    )
    .map(([k, v, c]) => `${k} = ${v}${c}`),
  fc.tuple(name, name).map(([a, b]) => `[${a}.${b}]`),
  name.map((n) => `[mcp_servers.${n}]`),
  name.map((n) => `[[${n}]]`),
  text.map((t) => `# ${t}`),
  fc.constant(''),
);

const tomlFile = fc
  .tuple(fc.array(tomlLine, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, final]) => lines.join(eol) + (final && lines.length ? eol : ''));

const jsonValue = fc.jsonValue({ maxDepth: 2 });
const foreignServers = fc.dictionary(name, fc.record({ command: name, args: fc.array(text, { maxLength: 2 }) }), { minKeys: 1, maxKeys: 3 });
const foreignHooks = fc.array(fc.record({ hooks: fc.array(fc.record({ type: fc.constant('command'), command: text }), { minLength: 1, maxLength: 2 }) }), {
  minLength: 1,
  maxLength: 3,
});
// Permission rules of the user's, some of them the very rules setup writes (the user allowed them first).
const ownRule = fc.constantFrom('mcp__toolshed__search_skills', 'mcp__toolshed__read_skill', 'mcp__toolshed-gateway__find_tools');
const permissions = fc.oneof(
  fc.record(
    { allow: fc.array(fc.oneof(ownRule, text), { maxLength: 4 }), deny: fc.option(fc.array(text, { maxLength: 2 }), { nil: undefined }) },
    { requiredKeys: [] },
  ),
  fc.record({ allow: jsonValue }),
  jsonValue,
);
const jsonFile = fc.record(
  {
    other: fc.dictionary(
      name.filter((n) => n !== 'permissions'),
      jsonValue,
      { maxKeys: 4 },
    ),
    mcpServers: fc.option(foreignServers, { nil: undefined }),
    hooks: fc.option(foreignHooks, { nil: undefined }),
    permissions: fc.option(permissions, { nil: undefined }),
  },
  { requiredKeys: ['other'] },
);

describe('toolshed setup keeps what it did not write', () => {
  it('a Codex config.toml survives install + remove byte for byte', () => {
    const h = homes();
    const file = path.join(h.userHome, '.codex', 'config.toml');
    mkdirSync(path.dirname(file), { recursive: true });
    fc.assert(
      fc.property(tomlFile, fc.boolean(), (original, gateway) => {
        writeFileSync(file, original);
        rmSync(file + '.toolshed-backup', { force: true });
        setup(h, 'codex', { gateway }).apply();
        const installed = readFileSync(file, 'utf8');
        assert.ok(installed.startsWith(original), 'everything before is kept as it was');
        assert.ok(findTable(installed, ['mcp_servers', 'toolshed']).ours, 'the table is found again');
        assert.deepEqual(setup(h, 'codex', { gateway }).plan.changes, [], 'a second run changes nothing');
        setup(h, 'codex', { gateway, remove: true }).apply();
        assert.equal(readFileSync(file, 'utf8'), original);
      }),
      { numRuns: 150 },
    );
  });

  it('Claude Code settings and MCP files survive install + remove as the same JSON, or are refused untouched', () => {
    const h = homes();
    const settings = path.join(h.userHome, '.claude', 'settings.json');
    const servers = path.join(h.userHome, '.claude.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    fc.assert(
      fc.property(jsonFile, jsonFile, fc.constantFrom(0, 2, '\t'), (a, b, indent) => {
        const settingsDoc = {
          ...a.other,
          ...(a.hooks ? { hooks: { UserPromptSubmit: a.hooks } } : {}),
          ...(a.permissions === undefined ? {} : { permissions: a.permissions }),
        };
        const serversDoc = { ...b.other, ...(b.mcpServers ? { mcpServers: b.mcpServers } : {}) };
        const settingsText = JSON.stringify(settingsDoc, null, indent);
        const serversText = JSON.stringify(serversDoc, null, indent);
        writeFileSync(settings, settingsText);
        writeFileSync(servers, serversText);
        for (const file of [settings, servers]) rmSync(file + '.toolshed-backup', { force: true });
        try {
          setup(h, 'claude', { gateway: true }).apply();
        } catch (error) {
          // A key of the user's in the way (e.g. "hooks": 3) is refused before anything is written.
          assert.ok(error instanceof SetupError, String(error));
          assert.equal(readFileSync(settings, 'utf8'), settingsText);
          assert.equal(readFileSync(servers, 'utf8'), serversText);
          return;
        }
        assert.deepEqual(setup(h, 'claude', { gateway: true }).plan.changes, [], 'a second run changes nothing');
        setup(h, 'claude', { gateway: true, remove: true }).apply();
        assert.deepEqual(JSON.parse(readFileSync(settings, 'utf8')), JSON.parse(settingsText));
        assert.deepEqual(JSON.parse(readFileSync(servers, 'utf8')), JSON.parse(serversText));
      }),
      { numRuns: 150 },
    );
  });
});
