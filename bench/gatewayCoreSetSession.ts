/**
 * A repeated-use session through the gateway, with and without the learned core set (a row of
 * bench/gatewayBench.ts, same run, same upstream definitions, same request sequence).
 *
 * The sequence: 200 requests of the held-out half whose right tool is in the tier, three in five
 * drawn from five frequent ones (a workspace uses a few tools often), the rest in turn from all of
 * them (seeded, the same for both arms). It runs as 4 client sessions of 50 requests, each a new
 * gateway for the same workspace; the scripted model sees the tools listed when its session
 * starts (what every client sees; a client that refreshes on `tools/list_changed` sees a promotion
 * sooner). Per request: the right tool listed → called in round 1; else `find_tools` (round 1), the
 * right tool in its top 5 → `call_tool` in round 2; else a second search of 10 (round 2) and the
 * call in round 3; not found → 3 rounds and no call. Tool-definition tokens per request: each
 * round's listed definitions plus the search answers it carries.
 */
import { mkdtempSync } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { rng as seeded } from './benchMath';
import { estimateTokens } from '../src/core/tools/modes/deferredNamesBlock';
import { doorFolderFor } from '../src/core/runtimes/doors/doorFolder';
import { McpGateway } from '../src/mcp/gateway/gateway';
import { gatewayDoorRecorder } from '../src/mcp/gateway/gatewayLedger';
import { definitionTokens } from '../src/mcp/gateway/gatewayText';
import type { UpstreamSpec } from '../src/mcp/gateway/upstreamConfig';
import { round } from './benchMath';
import { benchEngine } from './benchServices';

interface SessionRequest {
  id: number;
  request: string;
  gold: string[];
}

const SESSIONS = 4;
const PER_SESSION = 50;
const FREQUENT = 5;

function sequenceOf(requests: readonly SessionRequest[]): SessionRequest[] {
  const random = seeded(7);
  const frequent: SessionRequest[] = [];
  for (const r of requests) if (frequent.length < FREQUENT && !frequent.some((f) => f.gold[0] === r.gold[0])) frequent.push(r);
  const out: SessionRequest[] = [];
  let next = 0;
  for (let i = 0; i < SESSIONS * PER_SESSION; i++)
    out.push(random() < 0.6 ? frequent[Math.floor(random() * frequent.length)] : requests[next++ % requests.length]);
  return out;
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const foundNames = (text: string) => [...text.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);

export async function coreSetSessionRow(
  dir: string,
  upstreams: readonly UpstreamSpec[],
  requests: readonly SessionRequest[],
  connect: (gateway: McpGateway) => Promise<{ client: Client; close(): Promise<void> }>,
) {
  const sequence = sequenceOf(requests);
  const arm = async (learn: boolean) => {
    const home = mkdtempSync(path.join(dir, learn ? 'learn-' : 'plain-'));
    const workspace = path.join(home, 'workspace');
    let rounds = 0;
    let tokens = 0;
    let called = 0;
    let listedAtEnd: string[] = [];
    for (let s = 0; s < SESSIONS; s++) {
      const gateway = await McpGateway.create({
        upstreams,
        engine: await benchEngine(),
        ledger: gatewayDoorRecorder(
          workspace,
          () => 'bench',
          () => undefined,
          home,
        ),
        ...(learn ? { coreSetFolder: doorFolderFor(workspace, home) } : {}),
      });
      await gateway.ready();
      const { client, close } = await connect(gateway);
      try {
        const listed = (await client.listTools()).tools;
        const listedNames = new Set(listed.map((t) => t.name));
        const listedTokens = listed.reduce(
          (sum, t) => sum + definitionTokens({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema }),
          0,
        );
        listedAtEnd = gateway.learnedTools();
        for (const r of sequence.slice(s * PER_SESSION, (s + 1) * PER_SESSION)) {
          const gold = r.gold.find((g) => listedNames.has(g));
          if (gold) {
            await client.callTool({ name: gold, arguments: {} });
            rounds += 1;
            tokens += listedTokens;
            called++;
            continue;
          }
          const first = textOf((await client.callTool({ name: 'find_tools', arguments: { query: r.request.slice(0, 500) } })) as CallToolResult);
          let hit = foundNames(first).find((n) => r.gold.includes(n));
          let carried = estimateTokens(first);
          rounds += 2;
          tokens += listedTokens + (listedTokens + carried);
          if (!hit) {
            const second = textOf((await client.callTool({ name: 'find_tools', arguments: { query: r.request.slice(0, 500), limit: 10 } })) as CallToolResult);
            hit = foundNames(second).find((n) => r.gold.includes(n));
            carried += estimateTokens(second);
            rounds += 1;
            tokens += listedTokens + carried;
          }
          if (hit) {
            await client.callTool({ name: 'call_tool', arguments: { name: hit, arguments: {} } });
            called++;
          }
        }
      } finally {
        await close();
        await gateway.close();
      }
    }
    return { rounds, tokens, called, learned: listedAtEnd };
  };
  const plain = await arm(false);
  const learned = await arm(true);
  const n = sequence.length;
  return {
    name: 'gateway repeated-use session (learned core set)',
    requests: n,
    sessions: SESSIONS,
    distinct_requests: new Set(sequence.map((r) => r.id)).size,
    right_tool_called_without: round(plain.called / n),
    right_tool_called_with: round(learned.called / n),
    mean_rounds_without: round(plain.rounds / n),
    mean_rounds_with: round(learned.rounds / n),
    mean_definition_tokens_per_request_without: Math.round(plain.tokens / n),
    mean_definition_tokens_per_request_with: Math.round(learned.tokens / n),
    learned_tools_listed_in_last_session: learned.learned.length,
  };
}
