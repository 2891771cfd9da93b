import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { GatewayNames, serverSlug } from '../../../src/mcp/gateway/gatewayNames';
import { GATEWAY_TOOL_NAMES, MCP_SKILL_TOOL_NAMES, RUNTIME_TOOL_NAMES, TOOLSHED_TOOL_NAMES } from '../../../src/core/platform/toolNames';
import { takeGatewayArgs } from '../../../src/mcp/gateway/gatewayServer';
import { gatewaySettingsFromText } from '../../../src/mcp/gateway/gatewaySettings';
import { parseUpstreamConfig } from '../../../src/mcp/gateway/upstreamConfig';

/** The config files the gateway reads, and the one home of its tool names. */

const base = { baseDir: '/work/project', env: { HOME: '/home/u', TOKEN: 'abc' } };

describe('MCP gateway: upstream config files', () => {
  it("reads Claude Code's and Copilot CLI's mcpServers, expanding ${VAR} and ${VAR:-default}", () => {
    const text = JSON.stringify({
      mcpServers: {
        github: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: '${TOKEN}', LEVEL: '${MISSING:-info}' } },
        local: { type: 'local', command: 'node', args: ['server.js'], cwd: 'tools', tools: ['*'] },
      },
    });
    const { upstreams, problems } = parseUpstreamConfig(text, '.mcp.json', base);
    assert.deepEqual(problems, []);
    assert.deepEqual(upstreams[0], { name: 'github', slug: 'github', command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: 'abc', LEVEL: 'info' } });
    assert.equal(upstreams[1].cwd, '/work/project/tools');
  });

  it("reads VS Code's servers (with comments) and skips remote, prompted, disabled and Toolshed's own gateway, saying why", () => {
    const text = `{
      "servers": {
        // a comment
        "fs": { "type": "stdio", "command": "npx", "args": ["\${workspaceFolder}/x"], "env": { "HOME_DIR": "\${env:HOME}" } },
        "remote": { "type": "http", "url": "https://example.invalid" },
        "urlOnly": { "url": "https://example.invalid" },
        "prompted": { "command": "npx", "env": { "KEY": "\${input:key}" } },
        "off": { "command": "x", "disabled": true },
        "toolshed": { "command": "toolshed", "args": ["mcp", "--upstream", "mcp.json"] },
      },
      "inputs": [],
    }`;
    const { upstreams, problems } = parseUpstreamConfig(text, 'mcp.json', base);
    assert.deepEqual(
      upstreams.map((u) => [u.name, u.args, u.env]),
      [['fs', ['/work/project/x'], { HOME_DIR: '/home/u' }]],
    );
    assert.equal(problems.length, 5);
    assert.match(problems.join('\n'), /"remote": skipped: type "http"/);
    assert.match(problems.join('\n'), /"urlOnly": skipped: a remote \(url\) server/);
    assert.match(problems.join('\n'), /"prompted": skipped: needs a value VS Code prompts for/);
    assert.match(problems.join('\n'), /"toolshed": skipped: it is Toolshed's gateway itself/);
  });

  it('two servers whose names differ only in punctuation get distinct slugs', () => {
    const { upstreams } = parseUpstreamConfig(JSON.stringify({ mcpServers: { my_server: { command: 'a' }, 'my-server': { command: 'b' } } }), 'x', base);
    assert.deepEqual(
      upstreams.map((u) => u.slug),
      ['my-server', 'my-server-2'],
    );
  });

  it('any text is a list of upstreams and problems, never a throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const result = parseUpstreamConfig(text, 'x', base);
        assert.ok(Array.isArray(result.upstreams) && Array.isArray(result.problems));
      }),
    );
  });
});

describe('MCP gateway: tool names', () => {
  it('serves mcp_<server>_<tool> within [A-Za-z0-9_-] and 64 characters, distinct, stable while listed', () => {
    const names = new GatewayNames();
    const served = names.setServerTools('git', ['create.issue', 'create_issue', 'x'.repeat(100), 'x'.repeat(100) + 'y']);
    assert.deepEqual(served.slice(0, 2), ['mcp_git_create_issue', 'mcp_git_create_issue_2']);
    assert.ok(served.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name)));
    assert.equal(new Set(served).size, served.length);
    assert.deepEqual(names.resolve('mcp_git_create_issue_2'), { server: 'git', tool: 'create_issue' });
    assert.deepEqual(names.setServerTools('git', ['create_issue', 'new']).slice(0, 1), ['mcp_git_create_issue_2']);
    assert.equal(names.resolve('mcp_git_create_issue'), undefined);
    assert.equal(serverSlug('My Server!'), 'my-server');
  });

  it('any tool names map to distinct valid names that resolve back', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 30 }), (tools) => {
        const names = new GatewayNames();
        const served = names.setServerTools('s', tools);
        assert.equal(new Set(served).size, served.length);
        for (const name of served) {
          assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
          assert.equal(names.nameOf('s', names.resolve(name)!.tool), name);
        }
      }),
    );
  });
});

describe('MCP gateway: settings and options', () => {
  it('reads flat and nested toolshed.* keys; a bad value falls back with a problem line', () => {
    const { settings, problems } = gatewaySettingsFromText(
      '{ "toolshed.toolSearch.deny": ["mcp_x_*"], "toolshed": { "tools": { "state": { "mcp_a_b": "always" } } }, "toolshed.toolSearch.maxSearchResults": "many", "editor.fontSize": 3 }',
      'settings.json',
    );
    assert.deepEqual(settings.toolSearch.deny, ['mcp_x_*']);
    assert.deepEqual(settings.tools.state, { mcp_a_b: 'always' });
    assert.equal(settings.toolSearch.maxSearchResults, 10);
    assert.match(problems.join('\n'), /toolshed\.toolSearch\.maxSearchResults/);
  });

  it('takes the gateway options out of a command line and refuses bad ones', () => {
    assert.deepEqual(takeGatewayArgs(['--packs', 'p', '--upstream', 'a.json', '--upstream=b.json', '--expose', 'found', '--call-timeout-ms', '500']), {
      gateway: { upstreamFiles: ['a.json', 'b.json'], expose: 'found', exampleFiles: [], callTimeoutMs: 500 },
      rest: ['--packs', 'p'],
    });
    assert.deepEqual(takeGatewayArgs(['--packs', 'p']), { gateway: undefined, rest: ['--packs', 'p'] });
    assert.throws(() => takeGatewayArgs(['--expose', 'found']), /need --upstream FILE/);
    assert.throws(() => takeGatewayArgs(['--upstream', 'a', '--expose', 'all']), /--expose must be search or found/);
    assert.throws(() => takeGatewayArgs(['--upstream']), /--upstream needs a value/);
  });

  it("the gateway's tool names differ from the runtimes' own, Toolshed's chat tools and the skill server's", () => {
    const others = new Set<string>([...RUNTIME_TOOL_NAMES, ...TOOLSHED_TOOL_NAMES, ...MCP_SKILL_TOOL_NAMES]);
    for (const name of GATEWAY_TOOL_NAMES) {
      assert.ok(!others.has(name), name);
      assert.ok(!name.startsWith('mcp_'), name);
    }
  });
});
