import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MCP_READ_SKILL_TOOL_NAME, MCP_SEARCH_SKILLS_TOOL_NAME } from '../../../src/core/platform/toolNames';
import type { SkillRequestContext } from '../../../src/core/skills/skillRequestContext';
import type { McpSkillDecision } from '../../../src/mcp/mcpDecisions';
import { createToolshedMcpServer } from '../../../src/mcp/toolshedMcpServer';
import { makeService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { textOf } from './mcpFixtures';

/**
 * The server over an injected SkillService, as the extension and the door session build it: the
 * request context (scope, workspace trust, tool policy, retired skills) decides what any answer
 * may show, and each search and read is handed to the recorder.
 */
describe('toolshed mcp: scope, trust, retired skills and the tool policy hold in every answer', () => {
  let client: Client;
  let server: McpServer;
  let dispose: () => Promise<void>;
  const decisions: McpSkillDecision[] = [];
  const ctx: SkillRequestContext = {
    scope: { tenantId: 'T', projectId: 'A' },
    includeWorkspacePacks: false,
    retiredNames: new Set(['rotate-keys']),
    toolGate: (tool) => (tool === 'deploy_prod' ? 'denied' : 'unknown'),
    knownToolNames: ['deploy_prod'],
  };
  /** Everything a client can see: search, read, resources, the extension's list. */
  let everything: string;

  before(async () => {
    const roots = { g: tempDir(), copy: tempDir(), b: tempDir(), ws: tempDir() };
    const deploy = stepSkill(
      'deploy-service',
      'Deploy the service to production',
      ['Run deploy_prod with the release tag.', 'Watch the error rate.'],
      'description: Ship a release of the service to production.\ntools:\n  - tool: deploy_prod\n',
    );
    writeTree(roots.g, { 'deploy.skill.yaml': deploy, 'rotate.skill.yaml': stepSkill('rotate-keys', 'Rotate the API keys of the service') });
    writeTree(roots.copy, { 'deploy.skill.yaml': deploy.replace('name: deploy-service', 'name: deploy-service-copy') });
    writeTree(roots.b, { 'x.skill.yaml': stepSkill('deploy-beta', 'Deploy the service of project beta to production') });
    writeTree(roots.ws, { 'x.skill.yaml': stepSkill('deploy-workspace', 'Deploy the service to production from the workspace pack') });
    const h = await makeService();
    await h.service.loadPacks([
      pack('g', roots.g),
      pack('copy', roots.copy),
      pack('b', roots.b, { scopeMode: 'project', projectId: 'B', tenantId: 'T' }),
      pack('ws', roots.ws, { workspace: true }),
    ]);
    dispose = () => h.service.dispose();
    server = await createToolshedMcpServer({ skills: h.service, requestContext: () => ctx, record: (d) => void decisions.push(d) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'toolshed-test', version: '1.0.0' });
    await client.connect(clientSide);
    const answers = [
      await client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query: 'deploy the service to production', limit: 20 } }),
      await client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query: 'rotate the API keys of the service' } }),
      await client.callTool({ name: MCP_READ_SKILL_TOOL_NAME, arguments: { name: 'deploy-service' } }),
      await client.listResources(),
      await client.readResource({ uri: 'skill://deploy-service/SKILL.md' }),
    ];
    everything = answers.map((a) => JSON.stringify(a)).join('\n');
  });

  after(async () => {
    await client?.close();
    await server?.close();
    await dispose?.();
  });

  it('a skill of another project, of an untrusted workspace pack, or retired never appears', () => {
    for (const hidden of ['deploy-beta', 'deploy-workspace', 'rotate-keys']) assert.ok(!everything.includes(hidden), `${hidden} appeared`);
    assert.match(everything, /deploy-service/);
  });

  it('reading a hidden skill by name says why it is not available, and its resource is refused', async () => {
    const retired = await client.callTool({ name: MCP_READ_SKILL_TOOL_NAME, arguments: { name: 'rotate-keys' } });
    assert.equal(retired.isError, true);
    assert.match(textOf(retired), /retired in this workspace/);
    const otherProject = await client.callTool({ name: MCP_READ_SKILL_TOOL_NAME, arguments: { name: 'deploy-beta' } });
    assert.equal(otherProject.isError, true);
    assert.ok(!textOf(otherProject).includes('project beta'));
    await assert.rejects(client.readResource({ uri: 'skill://deploy-workspace/SKILL.md' }), /-32602/);
  });

  it('a denied tool is named nowhere, not even in the skill that uses it', () => {
    assert.ok(!everything.includes('deploy_prod'), 'the denied tool appeared');
    assert.match(everything, /Watch the error rate/);
  });

  it('a near-copy from another pack is collapsed into the skill it copies', () => {
    assert.match(everything, /deploy-service — Deploy the service to production .*near-copies left out: deploy-service-copy/);
  });

  it('each search and read is recorded once, with the skills it returned', () => {
    assert.deepEqual(
      decisions.map((d) => [d.door, d.action, d.skills]),
      [
        ['mcp', 'search', ['deploy-service']],
        ['mcp', 'search', []],
        ['mcp', 'read', ['deploy-service']],
        ['mcp', 'read', ['deploy-service']],
      ],
    );
    assert.equal(decisions[0]?.query, 'deploy the service to production');
  });
});
