import { strict as assert } from 'node:assert';
import { MemoryEventSink, MemoryLogger } from '../../../src/core/platform/basicPorts';
import type { ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../../../src/core/platform/chatTypes';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { runPlanner } from '../../../src/core/planner/plannerLoop';
import type { PlannerSkills } from '../../../src/core/planner/plannerPorts';
import { plannerToolRunFrom } from '../../../src/core/planner/plannerToolRun';
import { responseFooter } from '../../../src/core/planner/responseFooter';
import { ledgerServerOf, recordTurn } from '../../../src/core/planner/turnLedger';
import { LedgerStore } from '../../../src/core/ledger/ledgerStore';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { engine } from '../skills/helpers';
import { makeService, SAMPLE_TOOLS } from '../tools/helpers';

type Reply = (messages: ChatMessage[], tools: ToolDefinition[]) => ChatPart[];

function scriptedModel(replies: Reply[]): ChatModelPort {
  let turn = 0;
  return {
    async *send(messages, tools) {
      for (const part of replies[Math.min(turn++, replies.length - 1)](messages, tools)) yield part;
    },
    countTokens: async (text) => Math.ceil(text.length / 4),
  };
}

/** One injected skill that names the issue tools; the model "chose" it for 90 tokens. */
const triageSkills: PlannerSkills = {
  preflight: async () => ({
    pinnedBlock: '',
    relevantBlock: '<skills>\nTriage: list the issues, then file one.\n</skills>',
    used: [{ name: 'triage-issues', reason: 'chosen by the model' }],
    omitted: [],
    selectionTokens: 90,
    selectionModel: 'test-model',
  }),
  promptBlocks: () => [],
  directory: async () => '',
  handle: async () => ({ resultText: '{}', used: [] }),
  handles: () => false,
};
const triageRecord = { tools: [{ tool: 'mcp_github_list_issues' }], allowed_tools: [] } as unknown as SkillRecord;

const number = (text: string) => Number(text.replace(/,/g, ''));

describe('the ledger records a turn as its footer reports it', () => {
  it('definitions sent, their tokens and model requests equal the footer; calls, failures and activations per tool', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { mode: 'always', preActivateTools: 0 } });
    const run = await service.startRun();
    const model = scriptedModel([
      () => [{ kind: 'toolCall', callId: 'a', name: 'tool_search', input: { query: 'list github issues' } }],
      () => [
        { kind: 'toolCall', callId: 'b', name: 'mcp_github_list_issues', input: { repo: 'o/r' } },
        { kind: 'toolCall', callId: 'c', name: 'mcp_github_create_issue', input: { repo: 'o/r', title: 't' } },
      ],
      () => [{ kind: 'text', text: 'Filed it.' }],
    ]);
    const outcome = await runPlanner(
      { prompt: 'List the open issues of o/r and file one about the crash', history: [] },
      {
        model,
        tools: plannerToolRunFrom(run),
        skills: triageSkills,
        executor: { invoke: async (name) => (name === 'mcp_github_create_issue' ? { text: 'no permission', isError: true } : { text: '[]' }) },
        progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
        events: new MemoryEventSink(),
        signal: { isCancelled: false },
      },
      { maxRounds: 5, discoveryBlocks: true, hiddenFromLoop: ['tool_invoke'] },
    );
    run.end();
    const footer = responseFooter({ tokens: outcome.tokens, stoppedBecause: outcome.stoppedBecause, maxRounds: 5 });

    const ledger = await LedgerStore.open({ engine: await engine(), store: new MemoryByteStore(), logger: new MemoryLogger(), clock: { now: () => 5_000 } });
    recordTurn(ledger, outcome, { registry: service.registryMap(), skill: (name) => (name === 'triage-issues' ? triageRecord : undefined) }, 5_000);
    const report = ledger.report(1);

    const sent = /Toolshed sent ([\d + ]+) of \d+ tools over (\d+) rounds: ([\d,]+) tokens of tool definitions/.exec(footer);
    const requests = /Model requests: (\d+) /.exec(footer);
    assert.ok(sent && requests, footer);
    const perRound = sent[1].split(' + ').map(Number);
    assert.equal(report.totals.rounds, Number(sent[2]));
    assert.equal(
      report.totals.toolsSent,
      perRound.reduce((a, b) => a + b, 0),
    );
    assert.equal(report.totals.toolDefinitionTokens, number(sent[3]));
    assert.equal(report.totals.modelRequests, Number(requests[1]));
    assert.equal(
      report.tools.reduce((sum, row) => sum + row.sent, 0),
      report.totals.toolsSent,
      'per-tool definitions add up to the footer',
    );
    assert.equal(
      report.tools.reduce((sum, row) => sum + row.sentTokens, 0),
      report.totals.toolDefinitionTokens,
      'per-tool tokens add up to the footer',
    );

    const row = (tool: string) => report.tools.find((entry) => entry.tool === tool);
    assert.deepEqual(row('mcp_github_list_issues')?.activations.search, 1, 'found by tool_search');
    assert.equal(row('mcp_github_list_issues')?.calls, 1);
    assert.equal(row('mcp_github_create_issue')?.failures, 1);
    assert.equal(row('tool_search')?.calls, 1);
    const vain = report.tools.filter((entry) => entry.vain > 0).map((entry) => entry.tool);
    assert.ok(!vain.includes('mcp_github_list_issues'));
    assert.equal(report.servers.find((server) => server.server === 'github')?.calls, 2);
    const skill = report.skills.find((entry) => entry.skill === 'triage-issues');
    assert.deepEqual([skill?.injections, skill?.follows, skill?.selectionTokens], [1, 1, 90]);
  });

  it('names the provider of each tool', () => {
    assert.equal(ledgerServerOf('mcp_github_create_issue', { tags: ['mcp'], source: 'mcp' }), 'github');
    assert.equal(ledgerServerOf('tool_search', { tags: [], source: 'toolshed' }), 'Toolshed');
    assert.equal(ledgerServerOf('copilot_readFile', { tags: [], source: 'builtin' }), 'built-in');
  });
});
