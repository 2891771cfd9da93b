import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { MemoryEventSink } from '../../../src/core/platform/basicPorts';
import type { ChatModelPort, ChatPart, ToolDefinition } from '../../../src/core/platform/chatTypes';
import { runPlanner } from '../../../src/core/planner/plannerLoop';
import type { PlannerToolRun } from '../../../src/core/planner/plannerPorts';
import { answerSkillCall, createSingleSkillTool, withSingleSkillTool } from '../../../src/core/planner/plannerSingleSkill';
import { hiddenFromLoop } from '../../../src/core/planner/turn/hiddenFromLoop';
import { plannerSkillsFrom } from '../../../src/core/planner/plannerSkills';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';
import { makeService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';

const countTokens = async (text: string) => Math.ceil(text.length / 4);
const HIDDEN = 'ws-deploy-secrets';

/** A built-in-like pack, a workspace pack (hidden when untrusted) and one skill naming a denied tool. */
async function fixture() {
  const root = tempDir();
  const wsRoot = tempDir();
  writeTree(root, {
    'commit.skill.yaml': stepSkill('commit-message', 'When writing a commit message for staged changes.', ['Summarize the change in the subject.']),
    'branch.skill.yaml': stepSkill('name-branches', 'When creating a git branch.'),
    'flaky.skill.yaml': stepSkill('triage-flaky-tests', 'When a test fails only sometimes.'),
    'wipe.skill.yaml': stepSkill('clean-database', 'When the database must be reset; use mcp_admin_wipe carefully.', [
      'Run mcp_admin_wipe on the test database only.',
    ]),
    'deploy.skill.yaml': stepSkill('deploy-preview', 'When deploying a preview environment.'),
  });
  writeTree(wsRoot, { 'secret.skill.yaml': stepSkill(HIDDEN, 'When deploying with the workspace secrets.') });
  const h = await makeService();
  await h.service.loadPacks([pack('team', root), pack('ws', wsRoot, { workspace: true })]);
  const untrusted: SkillRequestContext = {
    includeWorkspacePacks: false,
    toolGate: (name) => (name === 'mcp_admin_wipe' ? 'denied' : 'visible'),
    knownToolNames: ['mcp_admin_wipe'],
  };
  return { ...h, root, untrusted };
}

const options = (extra: Partial<Parameters<typeof createSingleSkillTool>[2]> = {}) => ({
  maxEntries: 40,
  maxTokens: 2000,
  prompt: '',
  pinnedNames: [],
  countTokens,
  ...extra,
});

describe('single skill tool over the skill service', () => {
  it('the enum is exactly the visible skills: a hidden workspace skill is left out, a denied tool is gated in the listing', async () => {
    const { service, untrusted } = await fixture();
    const tool = createSingleSkillTool(service, untrusted, options());
    const definition = await tool.definition();
    const schema = definition?.inputSchema as { properties: { skill_name: { enum: string[] } } };
    const visible = (await service.list({ page_size: 50 }, untrusted)).skills.map((s) => s.name);
    assert.deepEqual([...schema.properties.skill_name.enum].sort(), [...visible].sort());
    assert.ok(!schema.properties.skill_name.enum.includes(HIDDEN));
    assert.ok(!definition!.description.includes(HIDDEN));
    assert.ok(definition!.description.includes('clean-database'));
    assert.ok(!definition!.description.includes('mcp_admin_wipe'), definition!.description);

    const trusted = await createSingleSkillTool(service, { ...untrusted, includeWorkspacePacks: true }, options()).listing();
    assert.ok(
      trusted.entries.some((e) => e.name === HIDDEN),
      'visible once the workspace is trusted',
    );
  });

  it('orders pinned, then relevant to the request, and caps with a note', async () => {
    const { service, untrusted } = await fixture();
    const listing = await createSingleSkillTool(
      service,
      untrusted,
      options({ pinnedNames: ['name-branches'], prompt: 'this test fails only sometimes, flaky', maxEntries: 3 }),
    ).listing();
    assert.deepEqual(listing.entries.map((e) => e.name).slice(0, 2), ['name-branches', 'triage-flaky-tests']);
    assert.equal(listing.entries.length, 3);
    assert.equal(listing.total, 5);
    assert.match(listing.description, /Showing 3 of 5 skills: 2 more exist/);
  });

  it('calling it returns the content, tool-gated; an unknown name gets close visible names; a vanished one is "removed or unavailable"', async () => {
    const { service, untrusted, root } = await fixture();
    const tool = createSingleSkillTool(service, untrusted, options());
    await tool.definition();
    const content = await tool.call({ skill_name: 'commit-message' });
    assert.match(content.resultText, /Summarize the change in the subject/);
    assert.deepEqual(
      content.used.map((u) => u.name),
      ['commit-message'],
    );
    const gated = await tool.call({ skill_name: 'clean-database' });
    assert.match(gated.resultText, /test database/);
    assert.ok(!gated.resultText.includes('mcp_admin_wipe'));

    assert.match((await tool.call({ skill_name: 'comit-message' })).resultText, /Unknown skill "comit-message"\. Closest skill names: commit-message/);
    assert.match((await tool.call({})).resultText, /skill_name must be/);

    rmSync(path.join(root, 'branch.skill.yaml'));
    await service.removeFile(path.join(root, 'branch.skill.yaml'));
    assert.match((await tool.call({ skill_name: 'name-branches' })).resultText, /"name-branches" was removed or is unavailable/);
    assert.match((await tool.call({ skill_name: 'commit-message' })).resultText, /Summarize/, 'the rest keeps working');
  });

  it('closest-name suggestions never reveal a hidden skill (random near-misses of its name)', async () => {
    const { service, untrusted } = await fixture();
    const nearMiss = fc
      .tuple(fc.nat({ max: HIDDEN.length - 1 }), fc.constantFrom('', 'x', '-', 's'))
      .map(([cut, add]) => HIDDEN.slice(0, cut) + add + HIDDEN.slice(cut + 1));
    await fc.assert(
      fc.asyncProperty(fc.oneof(nearMiss, fc.constant(HIDDEN), fc.string({ minLength: 1, maxLength: 30 })), async (name) => {
        const answer = await answerSkillCall(service, untrusted, { skill_name: name }, []);
        // The answer echoes the name it was given; nothing else in it may name the hidden skill.
        const suggestions = answer.resultText.split(`"${name}"`).slice(1).join('');
        assert.ok(!suggestions.includes(HIDDEN), `${name} → ${answer.resultText}`);
        // The exact name of a workspace skill gets the Restricted Mode explanation, any
        // other name the unknown-skill answer; neither ever loads the hidden skill's content.
        assert.match(answer.resultText, name === HIDDEN ? /hidden in Restricted Mode/ : /^(Unknown skill|Invalid input)/);
        assert.ok(!answer.resultText.includes('When deploying with the workspace secrets'), 'the hidden skill is never loaded');
      }),
      { numRuns: 60 },
    );
    const trusted = await answerSkillCall(service, { ...untrusted, includeWorkspacePacks: true }, { skill_name: 'ws-deploy-secret' }, []);
    assert.match(trusted.resultText, new RegExp(`Closest skill names: ${HIDDEN}`), 'the same near miss is suggested once the workspace is trusted');
  });
});

describe('single skill tool in the planner loop', () => {
  const run = (): PlannerToolRun => {
    const def = (name: string): ToolDefinition => ({ name, description: name, inputSchema: { type: 'object' } });
    const visible = ['tool_search', 'skill_search', 'skill_get', 'skill_list', 'skill'];
    return {
      visibleDefinitions: async () => visible.map(def),
      allDefinitions: async () => visible.map(def),
      promptBlocks: () => [],
      search: async () => ({ resultText: '{}', found: [], activated: [] }),
      resolveCall: async () => ({ ok: false, message: 'No such tool.' }),
      unknownToolMessage: () => 'No such tool.',
      recordCall: () => undefined,
    };
  };

  for (const style of ['single', 'both'] as const) {
    it(`${style}: round 1 offers the dynamic skill tool (enum) ${style === 'single' ? 'instead of' : 'beside'} the discovery tools, and a call returns the content`, async () => {
      const { service, untrusted } = await fixture();
      const sent: ToolDefinition[][] = [];
      let instructions = '';
      const results: string[] = [];
      const model: ChatModelPort = {
        async *send(messages, tools) {
          sent.push(tools);
          const first = messages[0]?.parts[0];
          if (first?.kind === 'text' && !instructions) instructions = first.text;
          const last = messages.at(-1)?.parts.find((p): p is Extract<ChatPart, { kind: 'toolResult' }> => p.kind === 'toolResult');
          if (last) {
            results.push(last.text);
            yield { kind: 'text', text: 'done' };
          } else {
            yield { kind: 'toolCall', callId: 'c1', name: 'skill', input: { skill_name: 'commit-message' } };
          }
        },
        countTokens,
      };
      const skills = plannerSkillsFrom(service, untrusted, { maxTokens: 500, topK: 0, pinnedNames: [], countTokens });
      const single = createSingleSkillTool(service, untrusted, options({ prompt: 'write a commit message' }));
      const wrapped = withSingleSkillTool(run(), skills, single, style);
      const outcome = await runPlanner(
        { prompt: 'write a commit message', history: [] },
        {
          model,
          tools: wrapped.tools,
          skills: wrapped.skills,
          executor: { invoke: async () => ({ text: 'x' }) },
          progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
          events: new MemoryEventSink(),
          signal: { isCancelled: false },
        },
        { maxRounds: 4, discoveryBlocks: true, hiddenFromLoop: hiddenFromLoop({ enabled: true, toolStyle: style }) },
      );

      const round1 = sent[0]!;
      const skillTools = round1.filter((t) => t.name === 'skill');
      assert.equal(skillTools.length, 1, 'exactly one skill tool: the dynamic one replaces the static one');
      assert.ok(Array.isArray((skillTools[0]!.inputSchema as { properties: { skill_name: { enum?: unknown } } }).properties.skill_name.enum));
      assert.equal(
        round1.some((t) => t.name === 'skill_search'),
        style === 'both',
      );
      assert.match(results[0] ?? '', /Summarize the change in the subject/);
      assert.deepEqual(
        outcome.usedSkills.map((s) => s.name),
        ['commit-message'],
      );
      assert.match(instructions, /call `skill` with its exact name/);
      assert.equal(/skill_search/.test(instructions), style === 'both', 'single: the prompt does not point at tools it does not offer');
      assert.equal(instructions.includes('<skill_directory>'), style === 'both', 'single: the listing replaces the directory');
    });
  }

  it('the loop hides tool_invoke, and the skill tools the tool style leaves out (all of them with skills off)', () => {
    assert.deepEqual(hiddenFromLoop({ enabled: true, toolStyle: 'discovery' }), ['tool_invoke', 'skill']);
    assert.deepEqual(hiddenFromLoop({ enabled: true, toolStyle: 'single' }), ['tool_invoke', 'skill_search', 'skill_get', 'skill_list']);
    assert.deepEqual(hiddenFromLoop({ enabled: true, toolStyle: 'both' }), ['tool_invoke']);
    assert.deepEqual(hiddenFromLoop({ enabled: false, toolStyle: 'both' }), ['tool_invoke', 'skill_search', 'skill_get', 'skill_list', 'skill']);
  });
});
