import * as assert from 'node:assert/strict';
import { MemoryEventSink } from '../../../src/core/platform/basicPorts';
import type { ChatMessage, ChatModelPort, ToolDefinition } from '../../../src/core/platform/chatTypes';
import { runPlanner } from '../../../src/core/planner/plannerLoop';
import type { PlannerToolRun } from '../../../src/core/planner/plannerPorts';
import { modelSkillSummarizer } from '../../../src/core/planner/skillSummarizer';
import { plannerSkillsFrom } from '../../../src/core/planner/plannerSkills';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';
import { makeService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';

/**
 * `toolshed.skills.maxTokens` is the whole pre-flight budget, pinned skills included, and what
 * did not fit is said; `toolshed.skills.summarize` condenses with the request's model, under
 * the same budget, falling back to structured compression on any failure.
 */

const exactTokens = async (text: string) => Math.ceil(text.length / 4);
const ctx: SkillRequestContext = { includeWorkspacePacks: true };

async function serviceWithSkills() {
  const root = tempDir();
  const longSteps = (topic: string) =>
    Array.from(
      { length: 30 },
      (_, i) => `Step ${i + 1} for the ${topic}: check the ${topic} settings, run the ${topic} checks, and record the ${topic} results carefully.`,
    );
  writeTree(root, {
    'pinned.skill.yaml': stepSkill('pack.p.release_checklist', 'Prepare a release checklist', longSteps('release')),
    'deploy.skill.yaml': stepSkill('pack.p.deploy_service', 'Deploy the service to production, ready to roll back', longSteps('deploy')),
    'rollback.skill.yaml': stepSkill('pack.p.rollback_service', 'Roll back a failed production deploy', longSteps('rollback')),
  });
  const h = await makeService();
  await h.service.loadPacks([pack('p', root)]);
  return h.service;
}

describe('planner: pre-flight skills share one budget', () => {
  it('pinned and relevant skills together never exceed maxTokens, and what did not fit is named', async () => {
    const service = await serviceWithSkills();
    for (const maxTokens of [300, 600, 1200]) {
      const port = plannerSkillsFrom(service, ctx, { maxTokens, topK: 3, pinnedNames: ['pack.p.release_checklist'], countTokens: exactTokens });
      const out = await port.preflight('deploy the service to production and roll back if it fails');
      const total = (await exactTokens(out.pinnedBlock)) + (await exactTokens(out.relevantBlock));
      assert.ok(total <= maxTokens, `${total} tokens injected for a budget of ${maxTokens}`);
      assert.ok(out.pinnedBlock.includes('pack.p.release_checklist'), 'pinned skills come first');
      const shown = out.used.map((u) => u.name);
      // Every relevant skill is either shown or named as left out.
      for (const name of ['pack.p.deploy_service', 'pack.p.rollback_service']) {
        assert.ok(shown.includes(name) || out.omitted.includes(name), `${name} neither shown nor reported (budget ${maxTokens})`);
      }
      assert.ok(!out.relevantBlock.includes('### pack.p.release_checklist'), 'a pinned skill is not injected twice');
    }
  });

  it('a budget too small for the pinned skill says so; an unknown pin is not reported as cut', async () => {
    const service = await serviceWithSkills();
    const port = plannerSkillsFrom(service, ctx, {
      maxTokens: 150,
      topK: 3,
      pinnedNames: ['pack.p.release_checklist', 'pack.p.no_such_skill'],
      countTokens: exactTokens,
    });
    const out = await port.preflight('deploy the service');
    assert.equal(out.pinnedBlock, '');
    assert.ok(out.omitted.includes('pack.p.release_checklist'));
    assert.ok(!out.omitted.includes('pack.p.no_such_skill'));
    assert.ok((await exactTokens(out.relevantBlock)) <= 150);
  });

  it('the planner tells the user which skills were left out', async () => {
    const service = await serviceWithSkills();
    const skills = plannerSkillsFrom(service, ctx, { maxTokens: 300, topK: 3, pinnedNames: ['pack.p.release_checklist'], countTokens: exactTokens });
    const progress: string[] = [];
    const model: ChatModelPort = {
      async *send() {
        yield { kind: 'text', text: 'ok' };
      },
      countTokens: exactTokens,
    };
    const tools: PlannerToolRun = {
      visibleDefinitions: async () => [],
      allDefinitions: async () => [],
      promptBlocks: () => [],
      search: async () => ({ resultText: '', found: [], activated: [] }),
      resolveCall: async () => ({ ok: false, message: 'no' }),
      unknownToolMessage: () => 'no',
      recordCall: () => undefined,
    };
    await runPlanner(
      { prompt: 'deploy the service to production', history: [] },
      {
        model,
        tools,
        skills,
        executor: { invoke: async () => ({ text: '' }) },
        progress: { progress: (m) => progress.push(m), markdown: () => undefined, reference: () => undefined },
        events: new MemoryEventSink(),
        signal: { isCancelled: false },
      },
      { maxRounds: 1, discoveryBlocks: false },
    );
    const line = progress.find((m) => m.startsWith('Skills left out'));
    assert.ok(line, progress.join('\n'));
    assert.match(line, /toolshed\.skills\.maxTokens/);
    assert.match(line, /pack\.p\.(deploy|rollback)_service|pack\.p\.release_checklist/);
  });
});

describe('planner: toolshed.skills.summarize', () => {
  const prompt = 'deploy the service to production and roll back if it fails';

  it('off or not needed: the model is never asked', async () => {
    const service = await serviceWithSkills();
    let calls = 0;
    const summarize = async () => {
      calls++;
      return 'x';
    };
    await plannerSkillsFrom(service, ctx, { maxTokens: 20000, topK: 3, pinnedNames: [], countTokens: exactTokens, summarize }).preflight(prompt);
    assert.equal(calls, 0, 'everything fitted: no summary');
  });

  it('on: the model condenses what structured compression had to cut, within the budget, redacted and gated', async () => {
    const service = await serviceWithSkills();
    const seen: Array<{ text: string; maxTokens: number }> = [];
    const summarize = async (text: string, maxTokens: number) => {
      seen.push({ text, maxTokens });
      return '### pack.p.deploy_service\n1. Run deploy_prod with password: "hunter two three".\n### pack.p.rollback_service\n1. Roll back.';
    };
    const gated: SkillRequestContext = { ...ctx, toolGate: (name) => (name === 'deploy_prod' ? 'denied' : 'visible'), knownToolNames: ['deploy_prod'] };
    const out = await plannerSkillsFrom(service, gated, { maxTokens: 300, topK: 3, pinnedNames: [], countTokens: exactTokens, summarize }).preflight(prompt);
    assert.equal(seen.length, 1);
    assert.ok(seen[0]!.text.includes('Step 30 for the deploy'), 'the model sees the full text, not the cut one');
    assert.ok(seen[0]!.maxTokens < 300);
    assert.match(out.relevantBlock, /condensed to fit/);
    assert.ok(!/deploy_prod|hunter/.test(out.relevantBlock), out.relevantBlock);
    assert.ok((await exactTokens(out.relevantBlock)) <= 300);
    assert.deepEqual(out.omitted, []);
  });

  for (const [label, summarize] of [
    [
      'throws',
      async () => {
        throw new Error('model unavailable');
      },
    ],
    ['answers nothing', async () => '   '],
    ['answers over budget', async () => 'word '.repeat(5000)],
  ] as const) {
    it(`on, but the model ${label}: the structured result is used`, async () => {
      const service = await serviceWithSkills();
      const structured = await plannerSkillsFrom(service, ctx, { maxTokens: 300, topK: 3, pinnedNames: [], countTokens: exactTokens }).preflight(prompt);
      const out = await plannerSkillsFrom(service, ctx, { maxTokens: 300, topK: 3, pinnedNames: [], countTokens: exactTokens, summarize }).preflight(prompt);
      assert.equal(out.relevantBlock, structured.relevantBlock);
      assert.ok(out.relevantBlock.length > 0);
    });
  }

  it('the model summarizer sends one message, offers no tools, and returns the reply text', async () => {
    const sent: Array<{ messages: ChatMessage[]; tools: ToolDefinition[] }> = [];
    const model: ChatModelPort = {
      async *send(messages, tools) {
        sent.push({ messages, tools });
        yield { kind: 'text', text: '### a\n' };
        yield { kind: 'toolCall', callId: 'x', name: 'ignored', input: {} };
        yield { kind: 'text', text: '1. b' };
      },
      countTokens: exactTokens,
    };
    const reply = await modelSkillSummarizer(model, { isCancelled: false })('FULL SKILL TEXT', 123);
    assert.equal(reply, '### a\n1. b');
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0]!.tools, []);
    const text = (sent[0]!.messages[0]!.parts[0] as { text: string }).text;
    assert.match(text, /at most 123 tokens/);
    assert.ok(text.endsWith('FULL SKILL TEXT'));
  });
});
