// A long simulated @toolshed session through the turn function the extension calls
// (runToolshedTurn), with a scripted model: static deferral vs the learned core set, per window
// of turns, and what recording each turn in the ledger costs.
//
// The catalog is BFCL's 3,258 tools (the shared folder; the bench skips when it is absent) plus
// 500 synthetic MCP tools. Turns follow a realistic skew: 60 % use one of six "daily" tools (three
// BFCL, three synthetic; Zipf weights), 40 % a long-tail request drawn from all labelled requests.
// The scripted model calls the gold tool when it is offered, else calls tool_search with the
// request once, then calls the gold tool if the search activated it, then answers.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultSettings } from '../src/core/config/settingsSchema';
import { CORE_SET_RULES } from '../src/core/ledger/learnedCoreSet';
import { LedgerStore } from '../src/core/ledger/ledgerStore';
import { nullLogger } from '../src/core/platform/basicPorts';
import type { ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../src/core/platform/chatTypes';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import { applyCoreSet, updateCoreSet } from '../src/core/planner/coreSetTurn';
import { serializeDefinitions } from '../src/core/planner/plannerLoop';
import { modelDeferral, runToolshedTurn } from '../src/core/planner/turn/toolshedTurn';
import { rng } from './benchMath';
import { recordTurn } from '../src/core/planner/turnLedger';
import { toolshedOwnTools } from '../src/cli/commands/toolCliSupport';
import { DefinitionTokenCache } from '../src/core/tools/modes/deferralMeasure';
import { createToolSearchService } from '../src/core/tools/toolSearchService';
import type { ToolInput } from '../src/core/tools/toolRecord';
import { benchEngine, benchSkillService } from './benchServices';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import type { SkillService } from '../src/core/skills/skillService';
import type { ToolRun } from '../src/core/tools/toolRun';
// @ts-expect-error: plain ESM helper shared with bench/tools.bench.mjs (bundled by esbuild)
import { generateCatalog } from './synthetic-tools.mjs';

const TURNS = 1000;
const WINDOW = 100;
const CONTEXT = 128_000;
const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);

interface Request {
  query: string;
  gold: string;
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);

function bfclFolder(): string | undefined {
  const root = process.cwd();
  return [path.join(root, '..', 'shared'), path.join(root, '..', '..', 'shared')]
    .map((dir) => path.join(dir, 'benchmarks', 'tool-retrieval', 'bfcl'))
    .find((dir) => existsSync(path.join(dir, 'tools.jsonl')));
}

/** The session's requests: a few daily tools carry most turns, the rest is a long tail. */
function session(bfcl: Request[], synthetic: Request[]): { requests: Request[]; daily: Request[] } {
  const rand = rng(36);
  const distinct = (list: Request[]) => list.filter((request, i) => list.findIndex((other) => other.gold === request.gold) === i);
  const daily = [
    ...distinct(bfcl)
      .filter((_, i) => i % 97 === 5)
      .slice(0, 3),
    ...distinct(synthetic)
      .filter((_, i) => i % 13 === 2)
      .slice(0, 3),
  ];
  const weights = daily.map((_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const tail = [...bfcl, ...synthetic];
  const requests = Array.from({ length: TURNS }, () => {
    if (rand() < 0.6) {
      let pick = rand() * total;
      for (let k = 0; k < daily.length; k++) if ((pick -= weights[k]!) <= 0) return daily[k]!;
      return daily[daily.length - 1]!;
    }
    return tail[Math.floor(rand() * tail.length)]!;
  });
  return { requests, daily };
}

/**
 * Skills a team writes for its daily tools: one per daily tool, its trigger the tool's own
 * description (the catalog's words, not the requests'), naming the tool in its steps.
 */
async function dailySkills(daily: Request[], catalog: ToolInput[]): Promise<{ service: SkillService; dispose(): void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-session-skills-'));
  daily.forEach((request, k) => {
    const description = catalog.find((tool) => tool.name === request.gold)?.description ?? request.gold;
    writeFileSync(
      path.join(dir, `daily-${k}.skill.yaml`),
      `name: daily-${k}\ntrigger: ${JSON.stringify(description)}\nsteps:\n  - ${JSON.stringify(`Call ${request.gold} with the values the request gives.`)}\ntools:\n  - ${JSON.stringify(request.gold)}\n`,
    );
  });
  const service = await benchSkillService(await benchEngine());
  await service.loadPacks([folderPack('daily', dir)]);
  return { service, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The skill context of one run, as the extension builds it: the run's tool gate. */
function skillContext(run: ToolRun) {
  return {
    includeWorkspacePacks: true,
    toolGate: (name: string) => (run.isVisible(name) ? ('visible' as const) : run.isPermitted(name) ? ('activatable' as const) : ('unknown' as const)),
  };
}

const countTokens = async (text: string) => Math.ceil(text.length / 4);

const textOf = (messages: ChatMessage[]) =>
  messages
    .flatMap((message) => message.parts)
    .map((part) => (part.kind === 'text' ? part.text : part.kind === 'toolResult' ? part.text : JSON.stringify(part)))
    .join('\n');

/** Calls the gold tool when offered; else searches once; then answers. Counts each request's prompt tokens. */
function scriptedModel(request: Request, seen: { firstOffered: string[]; promptTokens: number }): ChatModelPort {
  let searched = false;
  let called = false;
  return {
    async *send(messages: ChatMessage[], tools: ToolDefinition[]): AsyncIterable<ChatPart> {
      if (seen.firstOffered.length === 0) seen.firstOffered = tools.map((tool) => tool.name);
      seen.promptTokens += Math.ceil((textOf(messages).length + serializeDefinitions(tools).length) / 4);
      const offered = tools.some((tool) => tool.name === request.gold);
      if (!called && offered) {
        called = true;
        yield { kind: 'toolCall', callId: 'gold', name: request.gold, input: {} };
      } else if (!called && !searched) {
        searched = true;
        yield { kind: 'toolCall', callId: 'search', name: 'tool_search', input: { query: request.query } };
      } else {
        yield { kind: 'text', text: called ? 'Done.' : 'I could not find a tool for that.' };
      }
    },
    countTokens,
  };
}

interface ArmResult {
  arm: string;
  windows: Array<{
    turns: string;
    rounds_per_turn: number;
    model_requests_per_turn: number;
    tool_definition_tokens_per_turn: number;
    prompt_tokens_per_turn: number;
    gold_in_round_1: number;
  }>;
  half: { rounds: number; requests: number; definitionTokens: number; promptTokens: number; goldInRound1: number };
  maxCoreTools: number;
  maxCoreTokens: number;
  overBudgetTurns: number;
  recordMs: number[];
  ledgerBytes: number;
}

async function runArm(
  arm: string,
  learn: boolean,
  preActivateTools: number | undefined,
  catalog: ToolInput[],
  requests: Request[],
  skills?: SkillService,
): Promise<ArmResult> {
  const engine = await benchEngine();
  const settings = defaultSettings();
  settings.toolSearch.learnCoreSet = learn;
  if (preActivateTools !== undefined) settings.toolSearch.preActivateTools = preActivateTools;
  // Skills bring their tools: the deferred tools an injected skill names are activated with it.
  settings.learning.autoActivateTools = Boolean(skills);
  const tools = await createToolSearchService({ engine, store: new MemoryByteStore(), saveDelayMs: 600_000, config: { toolSearch: settings.toolSearch } });
  tools.setTools([...catalog, ...toolshedOwnTools()]);
  let now = START;
  const ledger = await LedgerStore.open({ engine, store: new MemoryByteStore(), logger: nullLogger, clock: { now: () => now } });
  const cache = new DefinitionTokenCache();
  const decide = modelDeferral(tools.config.toolSearch, { id: 'bench', maxInputTokens: CONTEXT, countTokens }, cache);
  const perTurn: Array<{ rounds: number; requests: number; definitionTokens: number; promptTokens: number; gold: boolean }> = [];
  const recordMs: number[] = [];
  let maxCoreTools = 0;
  let maxCoreTokens = 0;
  let overBudgetTurns = 0;
  const budget = Math.floor(CONTEXT * CORE_SET_RULES.maxContextShare);
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i]!;
    now = START + Math.floor(i / 50) * DAY + (i % 50) * 60_000;
    const seen = { firstOffered: [] as string[], promptTokens: 0 };
    const run = await tools.startRun();
    try {
      const { outcome } = await runToolshedTurn(
        { prompt: request.query, history: [], sessionId: `s${i}` },
        {
          settings,
          run,
          decideDeferral: decide,
          model: scriptedModel(request, seen),
          executor: { invoke: async () => ({ text: '{"ok":true}' }) },
          progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
          events: { emit: () => undefined },
          signal: { isCancelled: false },
          refuseToolRuns: false,
          ...(skills ? { skills: { service: skills, context: skillContext(run), pinnedNames: [] } } : {}),
          coreSet: settings.toolSearch.learnCoreSet ? (toolRun) => applyCoreSet(toolRun, ledger, settings.tools.state) : undefined,
        },
      );
      // CPU time, not wall time: on a shared machine the wall clock also counts other processes.
      const start = process.cpuUsage();
      recordTurn(ledger, outcome, { registry: tools.registryMap(), skill: () => undefined }, now);
      const used = process.cpuUsage(start);
      recordMs.push((used.user + used.system) / 1000);
      if (settings.toolSearch.learnCoreSet) {
        const set = updateCoreSet(ledger, {
          registry: tools.registryMap(),
          userStates: settings.tools.state,
          isPolicyAllowed: (name) => tools.isPolicyAllowed(name),
          contextTokens: CONTEXT,
          now,
        });
        const tokens = set.reduce((sum, entry) => sum + entry.tokens, 0);
        maxCoreTools = Math.max(maxCoreTools, set.length);
        maxCoreTokens = Math.max(maxCoreTokens, tokens);
        if (set.length > CORE_SET_RULES.maxTools || tokens > budget) overBudgetTurns++;
      }
      perTurn.push({
        rounds: outcome.rounds.length,
        requests: outcome.tokens.perRound.length + (outcome.tokens.selectionRequests ?? 0),
        definitionTokens: outcome.tokens.toolDefinitionTokens,
        promptTokens: seen.promptTokens,
        gold: seen.firstOffered.includes(request.gold),
      });
    } finally {
      run.end();
    }
  }
  const mean = (rows: typeof perTurn, pick: (row: (typeof perTurn)[number]) => number) =>
    rows.reduce((sum, row) => sum + pick(row), 0) / Math.max(1, rows.length);
  const r = (value: number, digits = 3) => Number(value.toFixed(digits));
  const windows = [];
  for (let start = 0; start < perTurn.length; start += WINDOW) {
    const rows = perTurn.slice(start, start + WINDOW);
    windows.push({
      turns: `${start + 1}-${start + rows.length}`,
      rounds_per_turn: r(mean(rows, (row) => row.rounds)),
      model_requests_per_turn: r(mean(rows, (row) => row.requests)),
      tool_definition_tokens_per_turn: r(
        mean(rows, (row) => row.definitionTokens),
        0,
      ),
      prompt_tokens_per_turn: r(
        mean(rows, (row) => row.promptTokens),
        0,
      ),
      gold_in_round_1: r(mean(rows, (row) => (row.gold ? 1 : 0))),
    });
  }
  const second = perTurn.slice(perTurn.length / 2);
  await tools.dispose();
  const ledgerBytes = ledger.byteSize();
  ledger.close();
  return {
    arm,
    windows,
    half: {
      rounds: mean(second, (row) => row.rounds),
      requests: mean(second, (row) => row.requests),
      definitionTokens: mean(second, (row) => row.definitionTokens),
      promptTokens: mean(second, (row) => row.promptTokens),
      goldInRound1: mean(second, (row) => (row.gold ? 1 : 0)),
    },
    maxCoreTools,
    maxCoreTokens,
    overBudgetTurns,
    recordMs: recordMs.sort((a, b) => a - b),
    ledgerBytes,
  };
}

async function main(): Promise<void> {
  const folder = bfclFolder();
  if (!folder) {
    console.log(JSON.stringify({ title: 'Session: static vs learned core set', skipped: 'the shared BFCL folder is absent', rows: [] }));
    return;
  }
  const bfclTools = readJsonl<ToolInput>(path.join(folder, 'tools.jsonl'));
  const bfcl = readJsonl<{ query: string; gold: string[] }>(path.join(folder, 'queries.jsonl'))
    .filter((query) => query.gold.length === 1)
    .map((query) => ({ query: query.query, gold: query.gold[0]! }));
  const synthetic = generateCatalog(500, 36);
  const { requests, daily } = session(
    bfcl,
    synthetic.queries.map((query: { query: string; gold: string[] }) => ({ query: query.query, gold: query.gold[0]! })),
  );
  const catalog = [...bfclTools, ...(synthetic.tools as ToolInput[])];
  const arms: ArmResult[] = [];
  // Defaults (request-match pre-activation on), then strict deferral (pre-activation off).
  arms.push(await runArm('static', false, undefined, catalog, requests));
  arms.push(await runArm('learned core set', true, undefined, catalog, requests));
  arms.push(await runArm('static, preActivateTools 0', false, 0, catalog, requests));
  arms.push(await runArm('learned core set, preActivateTools 0', true, 0, catalog, requests));
  const skills = await dailySkills(daily, catalog);
  try {
    arms.push(await runArm('learned + skills bring tools', true, undefined, catalog, requests, skills.service));
    arms.push(await runArm('learned + skills bring tools, preActivateTools 0', true, 0, catalog, requests, skills.service));
  } finally {
    skills.dispose();
  }
  const pct = (list: number[], p: number) => list[Math.min(list.length - 1, Math.floor(p * list.length))] ?? 0;
  const r = (value: number, digits = 3) => Number(value.toFixed(digits));
  const rows: object[] = [];
  for (const arm of arms) for (const window of arm.windows) rows.push({ case: 'window', arm: arm.arm, ...window });
  for (const arm of arms)
    rows.push({
      case: 'second half (turns 501-1000)',
      arm: arm.arm,
      rounds_per_turn: r(arm.half.rounds),
      model_requests_per_turn: r(arm.half.requests),
      tool_definition_tokens_per_turn: r(arm.half.definitionTokens, 0),
      prompt_tokens_per_turn: r(arm.half.promptTokens, 0),
      gold_in_round_1: r(arm.half.goldInRound1),
    });
  for (const [base, learned] of [
    [arms[0]!, arms[1]!],
    [arms[2]!, arms[3]!],
    [arms[0]!, arms[4]!],
    [arms[2]!, arms[5]!],
  ])
    rows.push({
      case: 'learned core set vs static, second half',
      arms: `${learned.arm} vs ${base.arm}`,
      fewer_rounds_pct: r((1 - learned.half.rounds / base.half.rounds) * 100, 1),
      prompt_tokens_per_turn_change_pct: r((learned.half.promptTokens / base.half.promptTokens - 1) * 100, 1),
      target: '>= 15 % fewer rounds, prompt tokens per turn not higher',
      met: learned.half.rounds <= base.half.rounds * 0.85 && learned.half.promptTokens <= base.half.promptTokens,
    });
  for (const learned of [arms[1]!, arms[3]!, arms[4]!, arms[5]!])
    rows.push({
      case: 'learned core set budget (8 tools, 3 % of 128k)',
      arm: learned.arm,
      max_tools: learned.maxCoreTools,
      max_tokens: learned.maxCoreTokens,
      budget_tokens: Math.floor(CONTEXT * CORE_SET_RULES.maxContextShare),
      turns_over_budget: learned.overBudgetTurns,
    });
  for (const arm of arms)
    rows.push({
      case: 'ledger write per turn, CPU ms (recordTurn: outcome → rows, one transaction)',
      arm: arm.arm,
      p50_ms: r(pct(arm.recordMs, 0.5)),
      p95_ms: r(pct(arm.recordMs, 0.95)),
      max_ms: r(pct(arm.recordMs, 1)),
      target: '<= 1 ms',
      ledger_bytes_after_1000_turns: arm.ledgerBytes,
    });
  console.log(JSON.stringify({ title: 'Session: static vs learned core set (1,000 turns, BFCL + synthetic)', rows }));
}

void main();
