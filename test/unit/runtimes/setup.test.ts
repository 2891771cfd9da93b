import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describePlan } from '../../../src/core/runtimes/setup/setupPlan';
import { findTable } from '../../../src/core/runtimes/setup/tomlTable';
import { homes, setup, fakeDist } from './setupHelpers';

/**
 * `toolshed setup` in temp HOMEs: what it writes in each runtime's own files, that a second run
 * changes nothing, that entries it did not write and files it cannot parse are left alone, the
 * backup, and `--remove`.
 */

/** Parsed JSON, walked without casts at each step (the assertions check the shapes). */
type Json = { [key: string]: Json } & Json[];
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json;

describe('toolshed setup', () => {
  it('Claude Code, workspace: the UserPromptSubmit hook and the .mcp.json server run the launcher; a second run changes nothing', () => {
    const h = homes();
    const first = setup(h, 'claude', { scope: 'workspace' });
    assert.equal(first.plan.changes.length, 3);
    first.apply();
    const settings = json(path.join(h.workspace, '.claude', 'settings.json'));
    const launcher = path.join(h.toolshedHome, 'bin', 'cli.js');
    assert.equal(settings.hooks.UserPromptSubmit[0].hooks[0].command, `node ${launcher} hook claude`);
    const server = json(path.join(h.workspace, '.mcp.json')).mcpServers.toolshed;
    assert.deepEqual(server, { type: 'stdio', command: 'node', args: [launcher, 'mcp', '--runtime', 'claude'] });
    assert.ok(existsSync(launcher), 'the launcher the entries run is there');
    const again = setup(h, 'claude', { scope: 'workspace' });
    assert.deepEqual(again.plan.changes, []);
    assert.equal(describePlan(again.plan, false), 'Nothing to change: the entries are already as setup writes them.\n');
  });

  it("Claude Code: allows the servers' read-only tools in permissions.allow (never call_tool), shows it, and --remove takes out only what it added", () => {
    const h = homes();
    const settingsFile = path.join(h.userHome, '.claude', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    // The user had already allowed one of the same tools, and something of their own.
    const original = { permissions: { allow: ['Bash(npm test)', 'mcp__toolshed__read_skill'], deny: ['Read(./.env)'] } };
    writeFileSync(settingsFile, JSON.stringify(original));
    const planned = setup(h, 'claude', { gateway: true });
    const shown = describePlan(planned.plan, false);
    assert.match(shown, /Add permissions\.allow \(Toolshed's read-only MCP tools\) in .*settings\.json/);
    assert.match(shown, /\+ \["mcp__toolshed__search_skills","mcp__toolshed__read_skill_file","mcp__toolshed-gateway__find_tools"\]/);
    planned.apply();
    assert.deepEqual(json(settingsFile).permissions.allow, [
      'Bash(npm test)',
      'mcp__toolshed__read_skill',
      'mcp__toolshed__search_skills',
      'mcp__toolshed__read_skill_file',
      'mcp__toolshed-gateway__find_tools',
    ]);
    assert.ok(!readFileSync(settingsFile, 'utf8').includes('call_tool'), "the gateway's call_tool is never allowed");
    assert.deepEqual(setup(h, 'claude', { gateway: true }).plan.changes, [], 'a second run changes nothing');
    setup(h, 'claude', { gateway: true, remove: true }).apply();
    assert.deepEqual(json(settingsFile), original, "the user's own rule for read_skill stays");
    // In a file that had no permissions at all, --remove leaves none behind.
    setup(h, 'claude', { scope: 'workspace' }).apply();
    const wsSettings = path.join(h.workspace, '.claude', 'settings.json');
    assert.deepEqual(json(wsSettings).permissions.allow, ['mcp__toolshed__search_skills', 'mcp__toolshed__read_skill', 'mcp__toolshed__read_skill_file']);
    setup(h, 'claude', { scope: 'workspace', remove: true }).apply();
    assert.equal(existsSync(wsSettings), false, 'the file setup created goes again');
  });

  it('Copilot CLI, user: a hook file in ~/.copilot/hooks and the server in mcp-config.json with deferTools never', () => {
    const h = homes();
    setup(h, 'copilot').apply();
    const hooks = json(path.join(h.userHome, '.copilot', 'hooks', 'toolshed.json'));
    assert.equal(hooks.version, 1);
    assert.match(String(hooks.hooks.userPromptSubmitted[0].command), /cli\.js hook copilot$/);
    const server = json(path.join(h.userHome, '.copilot', 'mcp-config.json')).mcpServers.toolshed;
    assert.equal(server.deferTools, 'never');
    assert.equal(server.type, 'local');
  });

  it('keeps every other entry, backs a file up once before its first change, and --remove takes out only its own', () => {
    const h = homes();
    const settingsFile = path.join(h.userHome, '.claude', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    const original = {
      model: 'opus',
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo mine' }] }], Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
    };
    writeFileSync(settingsFile, JSON.stringify(original, null, 4));
    const claudeJson = path.join(h.userHome, '.claude.json');
    writeFileSync(claudeJson, JSON.stringify({ numStartups: 3, mcpServers: { github: { command: 'gh-mcp' } } }));
    setup(h, 'claude', { gateway: true }).apply();
    assert.deepEqual(json(settingsFile).hooks.UserPromptSubmit[0], original.hooks.UserPromptSubmit[0], 'the user hook stays first');
    assert.equal(json(settingsFile).hooks.UserPromptSubmit.length, 2);
    assert.deepEqual(Object.keys(json(claudeJson).mcpServers), ['github', 'toolshed', 'toolshed-gateway']);
    assert.match(readFileSync(settingsFile, 'utf8'), /\n {4}"model"/, 'the file keeps its indentation');
    assert.equal(readFileSync(settingsFile + '.toolshed-backup', 'utf8'), JSON.stringify(original, null, 4));
    const gateway = json(path.join(h.toolshedHome, 'gateway.mcp.json'));
    assert.deepEqual(gateway, { mcpServers: {} });
    // A change of launcher (another home) rewrites Toolshed's entries; the backup stays the first one.
    setup({ ...h }, 'claude', { gateway: true, remove: true }).apply();
    assert.deepEqual(json(settingsFile), original);
    assert.deepEqual(json(claudeJson), { numStartups: 3, mcpServers: { github: { command: 'gh-mcp' } } });
    assert.equal(readFileSync(settingsFile + '.toolshed-backup', 'utf8'), JSON.stringify(original, null, 4));
  });

  it('refuses a file it cannot parse and writes nothing anywhere', () => {
    const h = homes();
    const claudeJson = path.join(h.userHome, '.claude.json');
    writeFileSync(claudeJson, '{"mcpServers": {"github": ');
    assert.throws(() => setup(h, 'claude'), /\.claude\.json is not valid JSON .*will not overwrite it/);
    assert.equal(readFileSync(claudeJson, 'utf8'), '{"mcpServers": {"github": ');
    assert.equal(existsSync(path.join(h.userHome, '.claude', 'settings.json')), false, 'planning refuses before any file is written');
    assert.equal(existsSync(claudeJson + '.toolshed-backup'), false);
    const toml = path.join(h.userHome, '.codex', 'config.toml');
    mkdirSync(path.dirname(toml));
    writeFileSync(toml, 'model = "o3"\nprofile = [\n');
    assert.throws(() => setup(h, 'codex'), /config\.toml could not be read as TOML/);
    assert.equal(readFileSync(toml, 'utf8'), 'model = "o3"\nprofile = [\n');
  });

  it('never takes over an entry named toolshed that it did not write', () => {
    const h = homes();
    const claudeJson = path.join(h.userHome, '.claude.json');
    writeFileSync(claudeJson, JSON.stringify({ mcpServers: { toolshed: { command: 'my-own-toolshed' } } }));
    assert.throws(() => setup(h, 'claude'), /an entry "toolshed" that Toolshed did not write/);
    assert.throws(() => setup(h, 'claude', { remove: true }), /did not write/);
    const toml = path.join(h.userHome, '.codex', 'config.toml');
    mkdirSync(path.dirname(toml));
    writeFileSync(toml, '[mcp_servers]\ntoolshed = { command = "mine" }\n');
    assert.throws(() => setup(h, 'codex'), /already defined by something other than toolshed setup/);
  });

  it('Codex: a marked [mcp_servers.toolshed] table in config.toml, removed to the byte', () => {
    const h = homes();
    const toml = path.join(h.userHome, '.codex', 'config.toml');
    mkdirSync(path.dirname(toml));
    const original = '# my config\r\nmodel = "o3"\r\n\r\n[mcp_servers.docs]\r\ncommand = "docs-mcp"  # keep\r\nargs = [\r\n  "--x",\r\n]';
    writeFileSync(toml, original);
    setup(h, 'codex', { gateway: true }).apply();
    const written = readFileSync(toml, 'utf8');
    assert.ok(written.startsWith(original));
    assert.match(written, /\[mcp_servers\.toolshed\]\n# written by `toolshed setup`/);
    assert.match(written, /\[mcp_servers\.toolshed-gateway\]/);
    // Codex waits for Toolshed's server and says so when it cannot start; the gateway (the user's own servers behind it) stays optional.
    assert.match(findTable(written, ['mcp_servers', 'toolshed']).ours?.body ?? '', /^required = true\nstartup_timeout_sec = 30$/m);
    assert.doesNotMatch(findTable(written, ['mcp_servers', 'toolshed-gateway']).ours?.body ?? '', /required/);
    assert.deepEqual(setup(h, 'codex', { gateway: true }).plan.changes, []);
    setup(h, 'codex', { gateway: true, remove: true }).apply();
    assert.equal(readFileSync(toml, 'utf8'), original);
  });

  it('files setup created are deleted again by --remove', () => {
    const h = homes();
    setup(h, 'copilot', { scope: 'workspace' }).apply();
    assert.ok(existsSync(path.join(h.workspace, '.github', 'hooks', 'toolshed.json')));
    setup(h, 'copilot', { scope: 'workspace', remove: true }).apply();
    assert.equal(existsSync(path.join(h.workspace, '.github', 'hooks', 'toolshed.json')), false);
    assert.equal(existsSync(path.join(h.workspace, '.github', 'mcp.json')), false);
    assert.equal(existsSync(path.join(h.workspace, '.github', 'mcp.json.toolshed-backup')), false);
  });

  it('a new version of the bundle refreshes the launcher without changing any entry', () => {
    const h = homes();
    setup(h, 'claude', { source: fakeDist('1.0.0') }).apply();
    const next = setup(h, 'claude', { source: fakeDist('1.1.0') });
    assert.deepEqual(next.plan.changes, []);
    assert.deepEqual(next.apply(), [`Copied the CLI 1.1.0 to ${path.join(h.toolshedHome, 'bin')}.`]);
    assert.match(readFileSync(path.join(h.toolshedHome, 'bin', 'cli.js'), 'utf8'), /1\.1\.0/);
  });

  it('a refresh replaces the program last: a hook started meanwhile never runs a new program beside an old CLI', () => {
    const h = homes();
    const bin = path.join(h.toolshedHome, 'bin');
    const withFastPath = (version: string) => {
      const source = fakeDist(version);
      writeFileSync(path.join(source.distDir, 'hookClient.js'), `// hookClient.js ${version}\n`);
      return source;
    };
    setup(h, 'claude', { source: withFastPath('1.0.0') }).apply();
    // What the folder holds each time a file lands in it.
    const versions: Array<Record<string, string>> = [];
    const rename = fs.renameSync;
    fs.renameSync = (from, to) => {
      rename(from, to);
      const held: Record<string, string> = {};
      for (const file of ['cli.js', 'cliMain.js', 'hookClient.js']) held[file] = /\d+\.\d+\.\d+/.exec(readFileSync(path.join(bin, file), 'utf8'))?.[0] ?? '';
      versions.push(held);
    };
    try {
      setup(h, 'claude', { source: withFastPath('1.1.0') }).apply();
    } finally {
      fs.renameSync = rename;
    }
    assert.ok(versions.length >= 3);
    for (const held of versions) {
      if (held['cli.js'] === '1.1.0') assert.deepEqual(held, { 'cli.js': '1.1.0', 'cliMain.js': '1.1.0', 'hookClient.js': '1.1.0' });
    }
    assert.equal(versions.at(-1)?.['cli.js'], '1.1.0');
  });
});
