import * as assert from 'node:assert/strict';
import { defaultSettings } from '../../../src/core/config/settingsSchema';
import { CORE_SET_RULES, nextCoreSet } from '../../../src/core/ledger/learnedCoreSet';
import { LedgerStore } from '../../../src/core/ledger/ledgerStore';
import { MemoryEventSink, MemoryLogger } from '../../../src/core/platform/basicPorts';
import type { ChatModelPort } from '../../../src/core/platform/chatTypes';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { updateCoreSet } from '../../../src/core/planner/coreSetTurn';
import { TurnLedger } from '../../../src/core/planner/turnLedger';
import { withoutFooter } from '../../../src/core/planner/responseFooter';
import { modelDeferral, runToolshedTurn } from '../../../src/core/planner/turn/toolshedTurn';
import { toolshedOwnTools } from '../../../src/cli/commands/toolCliSupport';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import type { ToolSearchConfig, ToolsConfig } from '../../../src/core/config/settingsSchema';
import { engineWith } from '../tools/helpers';

const NOW = Date.UTC(2026, 10, 27, 12);

describe('learned core set: the promotion rule', () => {
  const base = {
    current: [],
    undone: new Set<string>(),
    eligible: () => true,
    tokensOf: () => 100,
    contextTokens: 128_000,
    now: NOW,
  };
  /** `total` recent turns in which each tool is called `count` times; round 1 offered none of them unless `offered`. */
  const turns = (counts: Record<string, number>, total = 20, offered: ReadonlySet<string> = new Set()) =>
    Array.from({ length: total }, (_, i) => {
      const called = Object.entries(counts).flatMap(([tool, count]) => (i < count ? [tool] : []));
      return { called, missed: called.filter((tool) => !offered.has(tool)) };
    });

  it('promotes a tool called in enough of the recent turns, and not one called in fewer', () => {
    const set = nextCoreSet({ ...base, recent: turns({ daily: 9, weekly: CORE_SET_RULES.promoteAt - 1 }) });
    assert.deepEqual(
      set.map((entry) => [entry.tool, entry.usedIn, entry.windowTurns]),
      [['daily', 9, 20]],
    );
  });

  it('only turns where round 1 did not offer the tool count: one the request already pre-activates costs no round and is not promoted', () => {
    const set = nextCoreSet({ ...base, recent: turns({ matched: 15, searched: CORE_SET_RULES.promoteAt }, 20, new Set(['matched'])) });
    assert.deepEqual(
      set.map((entry) => entry.tool),
      ['searched'],
    );
    const current = [{ tool: 'matched', promotedAt: NOW - 1, usedIn: 9, windowTurns: 20, tokens: 100 }];
    assert.equal(
      nextCoreSet({ ...base, current, recent: turns({ matched: CORE_SET_RULES.keepAt }, 20, new Set(['matched'])) }).length,
      1,
      'a promoted tool is kept while it is called at all',
    );
  });

  it('never over budget: at most 8 tools and at most 3 % of the context, most used first', () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`tool_${String(i).padStart(2, '0')}`, 20 - i]));
    assert.equal(nextCoreSet({ ...base, recent: turns(many) }).length, CORE_SET_RULES.maxTools);
    const small = nextCoreSet({ ...base, recent: turns(many), tokensOf: () => 1000, contextTokens: 100_000 });
    assert.deepEqual(
      small.map((entry) => entry.tool),
      ['tool_00', 'tool_01', 'tool_02'],
      '3,000 tokens = 3 % of 100k',
    );
  });

  it('keeps a promoted tool while it is still used, demotes it once idle; never an ineligible or undone one', () => {
    const current = [{ tool: 'daily', promotedAt: NOW - 1, usedIn: 9, windowTurns: 20, tokens: 100 }];
    assert.equal(nextCoreSet({ ...base, current, recent: turns({ daily: CORE_SET_RULES.keepAt }) }).length, 1, 'kept above the lower bar');
    assert.equal(nextCoreSet({ ...base, current, recent: turns({ daily: CORE_SET_RULES.keepAt - 1 }) }).length, 0, 'demoted when idle');
    assert.equal(nextCoreSet({ ...base, current, recent: turns({ daily: 9 }), eligible: () => false }).length, 0, 'the user chose its state');
    assert.equal(nextCoreSet({ ...base, recent: turns({ daily: 9 }), undone: new Set(['daily']) }).length, 0, 'undone');
  });
});

describe('learned core set around a turn (real tool search, runToolshedTurn)', () => {
  const countTokens = async (text: string) => Math.ceil(text.length / 4);

  async function setup(toolSearch: Partial<ToolSearchConfig> = {}, tools: Partial<ToolsConfig> = {}) {
    const service = await createToolSearchService({
      engine: await engineWith(),
      store: new MemoryByteStore(),
      saveDelayMs: 60_000,
      config: { toolSearch: { mode: 'always', preActivateTools: 0, ...toolSearch }, tools },
    });
    service.setTools([
      { name: 'mcp_git_status', description: 'Show the working tree status of a git repository', inputSchema: { type: 'object' } },
      { name: 'mcp_git_log', description: 'Show the commit log', inputSchema: { type: 'object' } },
      ...toolshedOwnTools(),
    ]);
    const ledger = await LedgerStore.open({ engine: await engineWith(), store: new MemoryByteStore(), logger: new MemoryLogger(), clock: { now: () => NOW } });
    for (let i = 0; i < 9; i++)
      ledger.record({
        at: NOW,
        rounds: 2,
        modelRequests: 2,
        toolsSent: 0,
        toolDefinitionTokens: 0,
        tools: [{ name: 'mcp_git_status', server: 'git', sent: 1, sentTokens: 0, activatedBy: 'search', calls: 1, failures: 0 }],
        skills: [],
      });
    return { service, ledger };
  }

  async function turn(
    service: Awaited<ReturnType<typeof setup>>['service'],
    ledger: LedgerStore,
    userStates: Record<string, string> = {},
    refuseToolRuns = false,
    maxInputTokens = 128_000,
  ) {
    const offered: string[][] = [];
    const model: ChatModelPort = {
      async *send(_messages, tools) {
        offered.push(tools.map((tool) => tool.name));
        yield { kind: 'text', text: 'Clean.' };
      },
      countTokens,
    };
    // These cases set the core set by hand (`update`, `setCoreSet`): the envelope applies it and
    // records the turn, but does not run the promotion rule in between.
    const envelope = new (class extends TurnLedger {
      override learn() {
        return ledger.coreSet();
      }
    })({
      store: ledger,
      sources: () => ({ registry: service.registryMap(), skill: () => undefined, userStates, isPolicyAllowed: (tool) => service.isPolicyAllowed(tool) }),
      clock: { now: () => NOW },
      logger: new MemoryLogger(),
    });
    const run = await service.startRun();
    try {
      const result = await runToolshedTurn(
        { prompt: 'Is my working tree clean?', history: [], sessionId: 's' },
        {
          settings: defaultSettings(),
          run,
          decideDeferral: modelDeferral(service.config.toolSearch, { id: 'test', maxInputTokens, countTokens }),
          model,
          executor: { invoke: async () => ({ text: 'ok' }) },
          progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
          events: new MemoryEventSink(),
          signal: { isCancelled: false },
          refuseToolRuns,
          ledger: envelope,
        },
      );
      return { result, offered };
    } finally {
      run.end();
    }
  }

  const update = (service: Awaited<ReturnType<typeof setup>>['service'], ledger: LedgerStore, userStates: Record<string, string> = {}) =>
    updateCoreSet(ledger, {
      registry: service.registryMap(),
      userStates,
      isPolicyAllowed: (tool) => service.isPolicyAllowed(tool),
      contextTokens: 128_000,
      now: NOW,
    });

  it('a tool used in 9 of the last turns is sent in round 1 without a search, and the footer says why', async () => {
    const { service, ledger } = await setup();
    assert.deepEqual(
      update(service, ledger).map((entry) => entry.tool),
      ['mcp_git_status'],
    );
    const { result, offered } = await turn(service, ledger);
    assert.ok(offered[0]!.includes('mcp_git_status'), 'sent in round 1');
    assert.ok(!offered[0]!.includes('mcp_git_log'), 'the rest stays deferred');
    assert.match(
      result.footer,
      /_Visible without a search because you used it in 9 of the last 9 turns: `mcp_git_status` \(setting `toolshed\.toolSearch\.learnCoreSet`\)\._/,
    );
    assert.ok(!withoutFooter(result.footer).includes('Visible without a search'), 'recognised as a footer line');
    assert.deepEqual(
      result.coreSet.map((entry) => entry.tool),
      ['mcp_git_status'],
    );
  });

  it("the user's Deferred or Off wins, a denied tool is never promoted, Restricted Mode sends nothing", async () => {
    const { service, ledger } = await setup();
    update(service, ledger);
    assert.ok(!(await turn(service, ledger, { mcp_git_status: 'deferred' })).offered[0]!.includes('mcp_git_status'), 'Deferred by the user');
    assert.deepEqual(update(service, ledger, { 'mcp_git_*': 'off' }), [], 'Off by the user: demoted');
    update(service, ledger);
    const restricted = await turn(service, ledger, {}, true);
    assert.ok(!restricted.offered[0]!.includes('mcp_git_status'));
    assert.doesNotMatch(restricted.result.footer, /Visible without a search/);

    const denied = await setup({ deny: ['mcp_git_status'] });
    assert.deepEqual(update(denied.service, denied.ledger), [], 'the policy denies it');
    assert.ok(!(await turn(denied.service, denied.ledger)).offered[0]!.includes('mcp_git_status'));
  });

  it('the budget is checked every turn against the current model and the current definitions: an 8k model, a description grown to 300 KB', async () => {
    const { service, ledger } = await setup();
    const described = (what: string, repeat: number) => `${what}. ${'It lists every field of the result with its meaning and type. '.repeat(repeat)}`;
    const catalog = (statusDescription: string) =>
      service.setTools([
        { name: 'mcp_git_status', description: statusDescription, inputSchema: { type: 'object' } },
        { name: 'mcp_git_log', description: described('Show the commit log', 10), inputSchema: { type: 'object' } },
        ...toolshedOwnTools(),
      ]);
    catalog(described('Show the working tree status of a git repository', 10));
    // Promoted while the model had 128k tokens of context: both fit 3 % of it.
    ledger.setCoreSet(['mcp_git_status', 'mcp_git_log'].map((tool) => ({ tool, promotedAt: NOW, usedIn: 9, windowTurns: 9, tokens: 170 })));
    const sentTokens = (entries: Array<{ tool: string }>) =>
      entries.reduce((sum, entry) => {
        const record = service.registryMap().get(entry.tool)!;
        return sum + Math.ceil(JSON.stringify({ name: record.name, description: record.description, inputSchema: record.inputSchema }).length / 4);
      }, 0);
    const wide = await turn(service, ledger);
    assert.deepEqual(wide.result.coreSet.map((entry) => entry.tool).sort(), ['mcp_git_log', 'mcp_git_status']);

    const small = await turn(service, ledger, {}, false, 8_000);
    const budget = Math.floor(8_000 * CORE_SET_RULES.maxContextShare);
    assert.ok(small.result.coreSet.length < 2, `an 8k model: ${small.result.coreSet.map((entry) => entry.tool).join(', ')}`);
    assert.ok(sentTokens(small.result.coreSet) <= budget, `within ${budget} tokens`);
    const applied = new Set(small.result.coreSet.map((entry) => entry.tool));
    for (const tool of ['mcp_git_status', 'mcp_git_log']) assert.equal(small.offered[0]!.includes(tool), applied.has(tool), `${tool}: sent only if applied`);

    catalog(described('Show the working tree status of a git repository', 5000));
    assert.ok(service.registryMap().get('mcp_git_status')!.description.length > 300_000);
    const grown = await turn(service, ledger);
    assert.ok(!grown.offered[0]!.includes('mcp_git_status'), 'the grown definition is not sent without a search');
    assert.deepEqual(
      grown.result.coreSet.map((entry) => entry.tool),
      ['mcp_git_log'],
    );
    assert.doesNotMatch(grown.result.footer, /mcp_git_status/);
  });

  it('an undone promotion stays undone until a reset', async () => {
    const { service, ledger } = await setup();
    update(service, ledger);
    ledger.undoPromotion('mcp_git_status');
    assert.deepEqual(update(service, ledger), []);
    ledger.resetCoreSet();
    assert.deepEqual(update(service, ledger), [], 'a reset forgets the turns it learned from too');
    for (let i = 0; i < CORE_SET_RULES.promoteAt; i++)
      ledger.record({
        at: NOW,
        rounds: 1,
        modelRequests: 1,
        toolsSent: 0,
        toolDefinitionTokens: 0,
        tools: [{ name: 'mcp_git_status', server: 'git', sent: 0, sentTokens: 0, activatedBy: 'first_use', calls: 1, failures: 0 }],
        skills: [],
      });
    assert.deepEqual(
      update(service, ledger).map((entry) => entry.tool),
      ['mcp_git_status'],
    );
  });
});

describe('the ledger envelope of a turn (runToolshedTurn with a TurnLedger, as the extension and the session bench run it)', () => {
  const countTokens = async (text: string) => Math.ceil(text.length / 4);

  it('each turn is recorded, and a deferred tool called in 6 turns is sent in round 1 of the next; with learnCoreSet off it never is', async () => {
    for (const learn of [true, false]) {
      const service = await createToolSearchService({
        engine: await engineWith(),
        store: new MemoryByteStore(),
        saveDelayMs: 60_000,
        config: { toolSearch: { mode: 'always', preActivateTools: 0 } },
      });
      service.setTools([
        { name: 'mcp_db_fetch_record', description: 'Fetch one record by id', inputSchema: { type: 'object' } },
        { name: 'mcp_git_log', description: 'Show the commit log', inputSchema: { type: 'object' } },
        ...toolshedOwnTools(),
      ]);
      const store = await LedgerStore.open({ engine: await engineWith(), store: new MemoryByteStore(), logger: new MemoryLogger(), clock: { now: () => NOW } });
      let writes = 0;
      const ledger = new TurnLedger({
        store,
        sources: () => ({ registry: service.registryMap(), skill: () => undefined, userStates: {}, isPolicyAllowed: (tool) => service.isPolicyAllowed(tool) }),
        clock: { now: () => NOW },
        logger: new MemoryLogger(),
        wrote: () => writes++,
      });
      const settings = defaultSettings();
      settings.toolSearch.learnCoreSet = learn;
      const ask = async (call: boolean) => {
        const offered: string[][] = [];
        let round = 0;
        const model: ChatModelPort = {
          async *send(_messages, tools) {
            offered.push(tools.map((tool) => tool.name));
            // Called by name, never offered: what a promotion counts.
            if (call && round++ === 0) yield { kind: 'toolCall', callId: 'c', name: 'mcp_db_fetch_record', input: { id: '1' } };
            else yield { kind: 'text', text: 'Done.' };
          },
          countTokens,
        };
        const run = await service.startRun();
        try {
          const result = await runToolshedTurn(
            { prompt: 'Fetch the record', history: [], sessionId: 's' },
            {
              settings,
              run,
              decideDeferral: modelDeferral(service.config.toolSearch, { id: 'test', maxInputTokens: 128_000, countTokens }),
              model,
              executor: { invoke: async () => ({ text: 'ok' }) },
              progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
              events: new MemoryEventSink(),
              signal: { isCancelled: false },
              refuseToolRuns: false,
              ledger,
            },
          );
          return { result, offered };
        } finally {
          run.end();
        }
      };
      for (let i = 0; i < CORE_SET_RULES.promoteAt; i++) {
        const { result } = await ask(true);
        assert.equal(result.ledger?.recorded?.tools.find((use) => use.name === 'mcp_db_fetch_record')?.calls, 1, `turn ${i} recorded with its call`);
      }
      assert.equal(store.report(1).totals.turns, CORE_SET_RULES.promoteAt, 'every turn is in the ledger');
      assert.ok(writes >= CORE_SET_RULES.promoteAt, 'the caller hears of each write');
      const next = await ask(false);
      assert.equal(next.offered[0]!.includes('mcp_db_fetch_record'), learn, learn ? 'learned: sent in round 1' : 'learnCoreSet off: still deferred');
      assert.equal(/Visible without a search/.test(next.result.footer), learn);
      assert.ok(!next.offered[0]!.includes('mcp_git_log'), 'an unused tool stays deferred');
    }
  });
});
