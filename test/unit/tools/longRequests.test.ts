import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { RANKER_DEFAULTS, rankTools, rankingQuery } from '../../../src/core/tools/index/toolRanker';
import type { ToolIndex } from '../../../src/core/tools/index/toolIndex';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { SAMPLE_TOOLS, makeService } from './helpers';

const CATALOG: ToolInput[] = [
  ...SAMPLE_TOOLS,
  {
    name: 'mcp_slack_post_message',
    description: 'Post a new message to a Slack channel.',
    inputSchema: { type: 'object', properties: { channel_id: { type: 'string' }, text: { type: 'string' } } },
  },
  {
    name: 'mcp_kubernetes_pods_log',
    description: 'Get the logs of a Kubernetes pod in the given namespace.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' }, namespace: { type: 'string' }, previous: { type: 'boolean' } } },
  },
  {
    name: 'mcp_postgres_query',
    description: 'Run a read-only SQL query against the database.',
    inputSchema: { type: 'object', properties: { sql: { type: 'string' } } },
  },
];

/** About 2,300 characters of what a user pastes before asking: a thread, a log, some code. */
const PASTED_CONTEXT = [
  'Context for the handover: since about two this morning the checkout service has been flapping.',
  'Latency on the charges endpoint jumps from 180 ms to over four seconds right before each restart, and the error budget for the month is mostly gone.',
  'We rolled back yesterday\u2019s connection pool change at three, which did not help, so it is probably not that.',
  '',
  '```',
  ...Array.from(
    { length: 18 },
    (_, i) => `02:${String(10 + i).padStart(2, '0')}:41 WARN  pool=checkout-db active=${50 + i} idle=0 waiting=${i * 3} timeout=5000ms`,
  ),
  '```',
  '',
  'Things I have ruled out: the node pool (spread across three nodes, all healthy), the image (same digest as last week), and the secrets rotation on Tuesday.',
  'The JVM flags are the usual ones with G1 and exit on out-of-memory, and the memory limit is two gigabytes.',
  'Timeline so far: first restart at 02:10, alerts for elevated errors at 02:14, crash loop at 02:31, rollback at 03:00, still restarting every fifteen minutes at 03:20.',
].join('\n');

describe('long pasted requests (pre-activation reads the whole request, sentence by sentence)', () => {
  it('activates the tool a long paste asks for in its last sentence, after the first 2,000 characters', async () => {
    const ask = 'Please get the logs of the crashing pod in the prod namespace, including the previous container.';
    const request = `${PASTED_CONTEXT}\n\n${ask}`;
    assert.ok(request.indexOf(ask) > 2000, `the ask starts at ${request.indexOf(ask)}`);
    const { service } = await makeService({ tools: CATALOG });
    const run = await service.startRun();
    assert.deepEqual(
      run.activateForRequest(request).map((tool) => tool.name),
      ['mcp_kubernetes_pods_log'],
    );
    assert.ok(run.isVisible('mcp_kubernetes_pods_log'));
    // What Explain Last Turn shows: the candidates ranked for the request, the right one first,
    // and the stricter minimum a long request's sentences were held to (not the setting's 0.2).
    const record = run.lastRequestMatch!;
    assert.equal(record.candidates[0]?.name, 'mcp_kubernetes_pods_log');
    assert.ok(record.minRelevance > 0.2, `gate minimum ${record.minRelevance}`);
    assert.ok(record.candidates[0].relevance >= record.minRelevance);
  });

  it('a long paste no tool serves activates nothing, though its words together cover a tool', async () => {
    // Every word of "post a new message to a Slack channel" is here, one or two per sentence: gated
    // whole, the paste looked like a request for that tool.
    const request = [
      'Some background on our alerting before my question.',
      'Our bot posts whenever a deployment restarts.',
      'It goes to Slack.',
      'Each message carries the namespace and the exit code.',
      'The channel it uses is shared with the support team, who find it noisy.',
      '',
      '```',
      ...Array.from({ length: 12 }, (_, i) => `03:${String(10 + i).padStart(2, '0')}:02 restart deployment=checkout exit=137 reason=OOMKilled count=${i + 1}`),
      '```',
      '',
      'In plain words, is alerting on every restart a good idea, or should we alert on the restart rate over ten minutes instead?',
      'What are the trade-offs for a small team?',
    ].join('\n');
    assert.ok(request.length > 500 && request.length < 2000, `${request.length} characters`);
    const { service } = await makeService({ tools: CATALOG });
    const run = await service.startRun();
    assert.deepEqual(run.activateForRequest(request), []);
  });

  it('a request of any length is read up to 20,000 characters and never throws', async () => {
    const { service } = await makeService({ tools: CATALOG });
    await service.withRun({}, (run) => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom('logs', 'pod', 'namespace', '```', '\n', '. ', 'x'.repeat(300), '{"a": 1}', 'please'), { maxLength: 120 }),
          (parts) => {
            const matched = run.activateForRequest(parts.join(' '));
            return matched.every((tool) => tool.relevance >= 0 && tool.relevance <= 1);
          },
        ),
        { numRuns: 60 },
      );
    });
  });
});

describe('tool ranking: exact top-k over the whole catalog', () => {
  /** Words a long paste holds by the way (names, values): rare in the catalog, many of them in one request. */
  const INCIDENTAL = Array.from({ length: 40 }, (_, i) => `n${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}q`);
  /** Words of what the request asks for: common in the catalog, few in one request. */
  const ASK = ['create', 'issue', 'channel', 'message', 'pod', 'log'];

  /** The best `k` tools by scoring every tool of the catalog with the ranking's own terms (no first stage). */
  function scoreEveryTool(index: ToolIndex, query: string, accept: (name: string) => boolean, k: number): Array<{ name: string; relevance: number }> {
    const { terms, idf } = rankingQuery(index, query);
    const names = [...index.stats.keys()].filter(accept);
    const scores = index.stats.scorePool(names, terms, RANKER_DEFAULTS.fieldWeights, RANKER_DEFAULTS.fieldB, idf, RANKER_DEFAULTS.k1);
    return names
      .map((name, i) => ({ name, relevance: scores[i] }))
      .filter((tool) => tool.relevance > 0)
      .sort((a, b) => b.relevance - a.relevance || (a.name < b.name ? -1 : 1))
      .slice(0, k);
  }

  it('returns the same top k as scoring every tool, for a long request full of incidental words too', async function () {
    this.timeout(120_000);
    // 600 tools: most described by incidental words, some by the ask's. A request of 40+ incidental
    // words and a few ask words holds more postings than any budget over its "most selective"
    // terms would score, and those are the incidental ones: such a first stage missed tools of the
    // true top 10 for about a third of these requests.
    const description = fc.oneof(
      { weight: 5, arbitrary: fc.array(fc.constantFrom(...INCIDENTAL), { minLength: 3, maxLength: 6 }) },
      { weight: 1, arbitrary: fc.array(fc.constantFrom(...ASK), { minLength: 1, maxLength: 3 }) },
    );
    const request = fc
      .tuple(
        fc.array(fc.constantFrom(...INCIDENTAL), { minLength: 40, maxLength: 60 }),
        fc.array(fc.constantFrom(...ASK, 'please', '\n```\n'), { minLength: 1, maxLength: 6 }),
      )
      .map(([incidental, ask]) => [...incidental, ...ask].join(' '));
    await fc.assert(
      fc.asyncProperty(
        fc.array(description, { minLength: 600, maxLength: 600 }),
        fc.array(request, { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 5, max: 10 }),
        async (descriptions, queries, k) => {
          const tools: ToolInput[] = descriptions.map((words, i) => ({
            name: `tool_${i}_${words[0]}`,
            description: words.join(' '),
            inputSchema: { type: 'object' },
          }));
          const { service } = await makeService({ tools });
          const index = (service as unknown as { index: ToolIndex }).index;
          const accept = (name: string) => !name.endsWith('_pod');
          const check = () => {
            for (const query of queries) {
              const ranked = rankTools(index, query, accept, k);
              const expected = scoreEveryTool(index, query, accept, k);
              assert.equal(ranked.length, expected.length, query);
              ranked.forEach((tool, i) => {
                // Impacts are single precision: scores agree to ~1e-6, and equal scores may swap.
                assert.ok(Math.abs(tool.relevance - expected[i].relevance) <= 1e-5 * Math.max(1, expected[i].relevance), `${query}: #${i}`);
                assert.ok(accept(tool.name));
              });
            }
          };
          check();
          // Right after a catalog change (tools are scored one by one until a rebuild pays), and after the rebuild.
          service.setTools(tools.map((tool, i) => (i === 0 ? { ...tool, description: `${tool.description} ${ASK[0]} ${ASK[1]}` } : tool)));
          check();
          check();
          await service.dispose();
        },
      ),
      { numRuns: 8 },
    );
  });
});
