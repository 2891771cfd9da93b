import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import {
  MCP_READ_SKILL_FILE_TOOL_NAME,
  MCP_READ_SKILL_TOOL_NAME,
  MCP_SEARCH_SKILLS_TOOL_NAME,
  MCP_SKILL_TOOL_NAMES,
  RUNTIME_TOOL_NAMES,
  TOOLSHED_TOOL_NAMES,
} from '../../../src/core/platform/toolNames';
import { CLI, OUTSIDE_TEXT, SECRET, startCliServer, textOf, writeSkillPack } from './mcpFixtures';

/** The text of the first content of a `resources/read` answer. */
function resourceText(read: { contents: ReadonlyArray<object> }): string {
  const first = read.contents[0];
  return first && 'text' in first ? String(first.text) : '';
}

/**
 * `toolshed mcp` as an agent runtime runs it: the built CLI in its own process, a real MCP client
 * (the SDK's) on its stdin/stdout, skills in a pack folder on disk.
 */
describe('toolshed mcp: the skills server over stdio (real process, real client)', function () {
  this.timeout(60_000);
  let pack: string;
  let client: Client;
  let stderr: () => string;
  /** Every answer the server gave in this suite, to check that none carries the secret. */
  const answers: string[] = [];

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    answers.push(JSON.stringify(result));
    return result;
  };

  before(async () => {
    pack = writeSkillPack();
    ({ client, stderr } = await startCliServer(['--packs', pack]));
  });

  after(async () => {
    await client?.close();
    rmSync(path.dirname(pack), { recursive: true, force: true });
  });

  it("lists its three skill tools with input schemas, none named like a runtime's own tool or Toolshed's VS Code tools", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_SKILL_TOOL_NAMES].sort());
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 80, `${tool.name} has a description a model can act on`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.annotations?.readOnlyHint, true);
    }
    const search = tools.find((t) => t.name === MCP_SEARCH_SKILLS_TOOL_NAME);
    assert.deepEqual(search?.inputSchema.required, ['query']);
    const file = tools.find((t) => t.name === MCP_READ_SKILL_FILE_TOOL_NAME);
    assert.deepEqual(file?.inputSchema.required, ['name', 'file']);
    const taken = new Set<string>([...RUNTIME_TOOL_NAMES, ...TOOLSHED_TOOL_NAMES]);
    assert.deepEqual(
      tools.filter((t) => taken.has(t.name)).map((t) => t.name),
      [],
    );
  });

  it('search finds the right skill first, with its description and relevance, and nothing for an unrelated request', async () => {
    const found = textOf(await call(MCP_SEARCH_SKILLS_TOOL_NAME, { query: 'write the release notes for version 2.0 from the merged pull requests' }));
    const first = found.split('\n').find((line) => line.startsWith('1. '));
    assert.match(first ?? '', /^1\. release-notes — Write the release notes .*\(relevance 0\.\d\d\)/);
    const none = await call(MCP_SEARCH_SKILLS_TOOL_NAME, { query: 'bake a sourdough loaf with rye flour' });
    assert.notEqual(none.isError, true);
    assert.match(textOf(none), /^No skill applies/);
  });

  it('read_skill returns the instructions and the files, and read_skill_file one of those files', async () => {
    const read = textOf(await call(MCP_READ_SKILL_TOOL_NAME, { name: 'release-notes' }));
    assert.match(read, /List the pull requests merged since the last tag/);
    assert.match(read, /- references\/format\.md/);
    assert.match(read, /- scripts\/collect\.sh/);
    assert.doesNotMatch(read, /- assets\/secret\.txt/, 'a file under a folder linked from outside is not offered');
    const file = await call(MCP_READ_SKILL_FILE_TOOL_NAME, { name: 'release-notes', file: 'references/format.md' });
    assert.notEqual(file.isError, true);
    assert.match(textOf(file), /^# Format\n\nOne line per change/);
    const script = textOf(await call(MCP_READ_SKILL_FILE_TOOL_NAME, { name: 'release-notes', file: 'scripts/collect.sh' }));
    assert.match(script, /git log --merges/, 'a script comes back as text');
    const unknown = await call(MCP_READ_SKILL_TOOL_NAME, { name: 'release-notez' });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /Unknown skill "release-notez"\. Closest known names: release-notes/);
  });

  it('serves the skills as skill:// resources: listed, read (SKILL.md and a file), and through the skills/list and skills/get of SEP-2640', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), ['skill://db-migrate/SKILL.md', 'skill://release-notes/SKILL.md']);
    assert.equal(resources.find((r) => r.name === 'db-migrate')?.description, 'Plan and run a database schema migration without downtime.');
    const skill = await client.readResource({ uri: 'skill://release-notes/SKILL.md' });
    const skillText = resourceText(skill);
    answers.push(skillText);
    assert.match(skillText, /^---\nname: "release-notes"\ndescription: "Write the release notes[^\n]*"\n---\n/);
    assert.match(skillText, /List the pull requests merged/);
    const file = await client.readResource({ uri: 'skill://release-notes/references/format.md' });
    answers.push(resourceText(file));
    assert.match(resourceText(file), /One line per change/);
    assert.equal(file.contents[0]?.mimeType, 'text/markdown');
    assert.deepEqual(client.getServerCapabilities()?.extensions, { 'io.modelcontextprotocol/skills': {} });
    const listed = await client.request(
      { method: 'skills/list', params: {} },
      z.object({ skills: z.array(z.object({ uri: z.string(), frontmatter: z.record(z.string(), z.string()) })) }),
    );
    assert.deepEqual(listed.skills.map((s) => s.frontmatter.name).sort(), ['db-migrate', 'release-notes']);
    const got = await client.request(
      { method: 'skills/get', params: { uri: 'skill://db-migrate/SKILL.md' } },
      z.object({ skill: z.object({ uri: z.string() }) }),
    );
    assert.equal(got.skill.uri, 'skill://db-migrate/SKILL.md');
    await assert.rejects(client.readResource({ uri: 'skill://no-such-skill/SKILL.md' }), /-32602.*Unknown skill "no-such-skill"/);
    await assert.rejects(client.request({ method: 'skills/get', params: { uri: 'skill://no-such-skill/SKILL.md' } }, z.object({})), /-32602/);
  });

  it('never reads through a link out of the skill folder, nor a path that climbs out of it', async () => {
    for (const file of ['assets/secret.txt', 'references/leak.md', '../../outside/secret.txt', '../db-migrate/SKILL.md', '/etc/passwd']) {
      const result = await call(MCP_READ_SKILL_FILE_TOOL_NAME, { name: 'release-notes', file });
      assert.equal(result.isError, true, file);
      assert.ok(!textOf(result).includes(OUTSIDE_TEXT), file);
    }
    await assert.rejects(client.readResource({ uri: 'skill://release-notes/assets/secret.txt' }), /links outside the skill's folder/);
    await assert.rejects(client.readResource({ uri: 'skill://release-notes/..%2F..%2Foutside%2Fsecret.txt' }), /is not a file of skill/);
  });

  it('a secret in a skill is redacted in every answer above', () => {
    assert.ok(answers.length >= 10);
    assert.deepEqual(
      answers.filter((a) => a.includes(SECRET)),
      [],
    );
    assert.ok(answers.some((a) => a.includes('[REDACTED_TOKEN]')));
    assert.doesNotMatch(stderr(), /ghp_/);
  });

  it('exits with code 0 when the client closes stdin', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--packs', pack], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await once(child.stdout, 'data');
    child.stdin.end();
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
    assert.match(lines.join(''), /"serverInfo":\{"name":"toolshed"/);
  });
});
