import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MemoryEventSink } from '../../../src/core/platform/basicPorts';
import type { ToolRecord } from '../../../src/core/tools/toolRecord';
import { makeService } from './helpers';
import { decideDeferral } from '../../../src/core/tools/modes/deferralDecision';

/**
 * The hard rule, tested over random catalogs and policies: a tool that ToolPolicy denies or
 * the run's visibility predicate hides never appears in a search result, an error, an event
 * payload, a rendered definition, an activation list or an exported snapshot — and calling it
 * yields exactly the error an unknown tool gets.
 */

const WORDS = ['issue', 'file', 'read', 'write', 'github', 'deploy', 'secret', 'list', 'create', 'delete', 'search', 'repo'];

const toolArb = fc.record({
  prefix: fc.constantFrom('mcp_github', 'mcp_jira', 'copilot', 'internal', 'x'),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  description: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }),
  mention: fc.boolean(),
});

const scenarioArb = fc.record({
  tools: fc.uniqueArray(toolArb, { minLength: 1, maxLength: 25, selector: (t) => `${t.prefix}_${t.words.join('_')}` }),
  deny: fc.array(fc.constantFrom('mcp_jira_*', '*secret*', 'internal_*', '*_delete*', 'copilot_*'), { maxLength: 3 }),
  hideWord: fc.constantFrom(...WORDS),
  queries: fc.array(
    fc.record({
      query: fc.oneof(
        fc.constantFrom(...WORDS),
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
        fc.constantFrom('.*', 'mcp_', '^x', 'secret|issue'),
      ),
      search_type: fc.constantFrom('fts', 'regex', 'exact'),
      include_always_loaded: fc.boolean(),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  activateOn: fc.constantFrom<'discovery' | 'firstUse'>('discovery', 'firstUse'),
  // Tool search modes: the mode and its decision, the user's own `off`, select:, and a pick log that
  // "remembers" every tool (forbidden ones included) as picked and working.
  mode: fc.constantFrom<'auto' | 'always' | 'off'>('auto', 'always', 'off'),
  sendAll: fc.boolean(),
  offPattern: fc.constantFrom<string | undefined>(undefined, 'mcp_github_*', '*read*'),
  selectCount: fc.integer({ min: 0, max: 6 }),
});

describe('policy and visibility never leak (randomized)', () => {
  it('holds over random catalogs, policies, visibility predicates and queries', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const names = s.tools.map((t) => `${t.prefix}_${t.words.join('_')}`);
        const inputs = s.tools.map((t, i) => ({
          name: names[i],
          // Some descriptions mention another tool by name: those mentions must be scrubbed too.
          description: `${t.description.join(' ')}${t.mention ? ` then call ${names[(i + 1) % names.length]}.` : ''}`,
          inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        }));
        const { service, events } = await makeService({
          tools: inputs,
          toolSearch: { deny: s.deny, activateOn: s.activateOn, alwaysLoadedPatterns: ['x_*'], mode: s.mode },
          toolsConfig: { state: s.offPattern ? { [s.offPattern]: 'off' } : {} },
        });
        for (const word of WORDS) for (const name of names) service.pickLog.recordSearch('seed', `${word} ${name}`, [name], 999);
        for (const name of names) service.pickLog.recordOutcome('seed', name, true, 1_000);
        const isVisible = (tool: ToolRecord) => !tool.name.includes(s.hideWord);
        const allowed = new Set(service.registry().map((r) => r.name));
        const forbidden = names.filter((n) => !allowed.has(n) || n.includes(s.hideWord));
        const sink = new MemoryEventSink();
        const sub = service.onEvent((e) => sink.emit(e));
        const run = await service.startRun({ isVisible });
        run.applyDeferral(
          decideDeferral({ mode: s.mode, thresholdPercent: 10, maxInputTokens: 128_000, toolCount: names.length, definitionTokens: s.sendAll ? 10 : 50_000 }),
        );
        const texts: string[] = [];
        for (const q of s.queries) {
          const result = run.search(q);
          texts.push(JSON.stringify(result));
        }
        // select: names the model typed (it may know a forbidden name); only the answer is checked, not the echo of its query.
        const selected = run.search({ query: `select:${names.slice(0, s.selectCount).join(',')}` });
        texts.push(JSON.stringify(selected.ok ? { tools: selected.output.tools, note: selected.output.note } : selected.error));
        texts.push(...run.promptBlocks());
        const unknownError = run.resolveCall('definitely_not_a_tool_zz');
        for (const name of forbidden) {
          const result = run.resolveCall(name);
          assert.ok(!result.ok, `forbidden ${name} resolved`);
          assert.deepEqual(result, unknownError);
        }
        texts.push(JSON.stringify(run.toolDefinitions()), JSON.stringify(run.listActivations()), JSON.stringify(run.visibleTools().map((t) => t.name)));
        texts.push(JSON.stringify(service.exportSession('none')), JSON.stringify(events.events), JSON.stringify(sink.events));
        const haystack = texts.join('\n');
        for (const name of forbidden) {
          const pattern = new RegExp(`(^|[^A-Za-z0-9_.\\-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_\\-])`);
          assert.ok(!pattern.test(haystack), `forbidden tool ${name} leaked`);
        }
        sub.dispose();
        run.end();
      }),
      { numRuns: 60, seed: 20260301 },
    );
  });
});
