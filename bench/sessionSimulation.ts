// The simulated @toolshed session the session bench and the core-set tuning run: a catalog (BFCL's
// 3,258 tools from the shared folder plus 500 synthetic MCP tools), a skewed stream of requests (a
// few "daily" tools carry most turns, the rest is a long tail), and one arm = the whole stream
// through runToolshedTurn, the turn function the extension calls, with a scripted model and the
// turn's own ledger envelope (TurnLedger: the core set applied, the turn recorded and, for a
// learned arm, the promotion rule after each turn), as the extension runs it.
//
// The scripted model calls the gold tool when it is offered, else calls tool_search with the
// request once, then calls the gold tool if the search activated it, then answers.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultSettings } from '../src/core/config/settingsSchema';
import { CORE_SET_RULES, type CoreSetRules } from '../src/core/ledger/learnedCoreSet';
import { LedgerStore } from '../src/core/ledger/ledgerStore';
import { nullLogger } from '../src/core/platform/basicPorts';
import type { ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../src/core/platform/chatTypes';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import { serializeDefinitions } from '../src/core/planner/plannerLoop';
import { modelDeferral, runToolshedTurn } from '../src/core/planner/turn/toolshedTurn';
import { rng } from './benchMath';
import { TurnLedger, type TurnLedgerDeps } from '../src/core/planner/turnLedger';
import type { PlannerOutcome } from '../src/core/planner/plannerLoop';
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

export const CONTEXT = 128_000;
const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);

export interface Request {
  query: string;
  gold: string;
}

/** How one session is drawn: its seed and which catalog entries are its daily tools. */
export interface SessionPlan {
  seed: number;
  turns: number;
  /** Every 97th distinct BFCL request from this offset, and every 13th synthetic one, gives the daily tools. */
  bfclOffset: number;
  syntheticOffset: number;
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

export interface Corpus {
  catalog: ToolInput[];
  bfcl: Request[];
  synthetic: Request[];
}

/** The catalog and every labelled request; undefined when the shared BFCL folder is absent. */
export function loadCorpus(): Corpus | undefined {
  const folder = bfclFolder();
  if (!folder) return undefined;
  const bfclTools = readJsonl<ToolInput>(path.join(folder, 'tools.jsonl'));
  const bfcl = readJsonl<{ query: string; gold: string[] }>(path.join(folder, 'queries.jsonl'))
    .filter((query) => query.gold.length === 1)
    .map((query) => ({ query: query.query, gold: query.gold[0]! }));
  const generated = generateCatalog(500, 36);
  const synthetic = generated.queries.map((query: { query: string; gold: string[] }) => ({ query: query.query, gold: query.gold[0]! }));
  return { catalog: [...bfclTools, ...(generated.tools as ToolInput[])], bfcl, synthetic };
}

/** The session's requests: 60 % use one of six daily tools (Zipf weights 1, 1/2, … 1/6), 40 % a long-tail request. */
export function drawSession(corpus: Corpus, plan: SessionPlan): { requests: Request[]; daily: Request[] } {
  const rand = rng(plan.seed);
  const distinct = (list: Request[]) => list.filter((request, i) => list.findIndex((other) => other.gold === request.gold) === i);
  const daily = [
    ...distinct(corpus.bfcl)
      .filter((_, i) => i % 97 === plan.bfclOffset)
      .slice(0, 3),
    ...distinct(corpus.synthetic)
      .filter((_, i) => i % 13 === plan.syntheticOffset)
      .slice(0, 3),
  ];
  const weights = daily.map((_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const tail = [...corpus.bfcl, ...corpus.synthetic];
  const requests = Array.from({ length: plan.turns }, () => {
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
export async function dailySkills(daily: Request[], catalog: ToolInput[]): Promise<{ service: SkillService; dispose(): void }> {
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

export interface TurnResult {
  rounds: number;
  requests: number;
  definitionTokens: number;
  promptTokens: number;
  /** The gold tool was offered in round 1. */
  gold: boolean;
}

export interface ArmOptions {
  /** `toolshed.toolSearch.learnCoreSet`. */
  learn: boolean;
  /** `toolshed.toolSearch.preActivateTools` (undefined: the default). */
  preActivateTools?: number;
  /** Skills bring their tools: these skills in the store and `toolshed.learning.autoActivateTools` on. */
  skills?: SkillService;
  /** The promotion rule's constants (default: the shipped ones). */
  rules?: Readonly<CoreSetRules>;
}

export interface ArmResult {
  turns: TurnResult[];
  maxCoreTools: number;
  maxCoreTokens: number;
  overBudgetTurns: number;
  /** Tools ever promoted. */
  promoted: Set<string>;
  recordMs: number[];
  ledgerBytes: number;
}

export async function runArm(catalog: ToolInput[], requests: readonly Request[], options: ArmOptions): Promise<ArmResult> {
  const rules = options.rules ?? CORE_SET_RULES;
  const engine = await benchEngine();
  const settings = defaultSettings();
  settings.toolSearch.learnCoreSet = options.learn;
  if (options.preActivateTools !== undefined) settings.toolSearch.preActivateTools = options.preActivateTools;
  // Skills bring their tools: the deferred tools an injected skill names are activated with it.
  settings.learning.autoActivateTools = Boolean(options.skills);
  const tools = await createToolSearchService({ engine, store: new MemoryByteStore(), saveDelayMs: 600_000, config: { toolSearch: settings.toolSearch } });
  tools.setTools([...catalog, ...toolshedOwnTools()]);
  let now = START;
  const ledger = await LedgerStore.open({ engine, store: new MemoryByteStore(), logger: nullLogger, clock: { now: () => now } });
  const recordMs: number[] = [];
  const turnLedger = new TimedTurnLedger(
    {
      store: ledger,
      sources: () => ({
        registry: tools.registryMap(),
        skill: () => undefined,
        userStates: settings.tools.state,
        isPolicyAllowed: (name) => tools.isPolicyAllowed(name),
      }),
      clock: { now: () => now },
      logger: nullLogger,
      rules,
    },
    recordMs,
  );
  const decide = modelDeferral(tools.config.toolSearch, { id: 'bench', maxInputTokens: CONTEXT, countTokens }, new DefinitionTokenCache());
  const turns: TurnResult[] = [];
  const promoted = new Set<string>();
  let maxCoreTools = 0;
  let maxCoreTokens = 0;
  let overBudgetTurns = 0;
  const budget = Math.floor(CONTEXT * rules.maxContextShare);
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i]!;
    now = START + Math.floor(i / 50) * DAY + (i % 50) * 60_000;
    const seen = { firstOffered: [] as string[], promptTokens: 0 };
    const run = await tools.startRun();
    try {
      const { outcome, ledger: kept } = await runToolshedTurn(
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
          ...(options.skills ? { skills: { service: options.skills, context: skillContext(run), pinnedNames: [] } } : {}),
          ledger: turnLedger,
        },
      );
      // The envelope logs a failed write and goes on (as in the extension); a bench must not measure without it.
      if (!kept?.recorded) throw new Error(`turn ${i}: the ledger did not record it`);
      if (kept.coreSet) {
        const set = kept.coreSet;
        const tokens = set.reduce((sum, entry) => sum + entry.tokens, 0);
        for (const entry of set) promoted.add(entry.tool);
        maxCoreTools = Math.max(maxCoreTools, set.length);
        maxCoreTokens = Math.max(maxCoreTokens, tokens);
        if (set.length > rules.maxTools || tokens > budget) overBudgetTurns++;
      }
      turns.push({
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
  await tools.dispose();
  const ledgerBytes = ledger.byteSize();
  ledger.close();
  return { turns, maxCoreTools, maxCoreTokens, overBudgetTurns, promoted, recordMs: recordMs.sort((a, b) => a - b), ledgerBytes };
}

/** The turn's ledger envelope, with the CPU time of each turn's write (outcome → rows, one transaction) kept in `recordMs`. */
class TimedTurnLedger extends TurnLedger {
  constructor(
    deps: TurnLedgerDeps,
    private readonly recordMs: number[],
  ) {
    super(deps);
  }

  override record(outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>) {
    // CPU time, not wall time: on a shared machine the wall clock also counts other processes.
    const start = process.cpuUsage();
    const recorded = super.record(outcome);
    const used = process.cpuUsage(start);
    this.recordMs.push((used.user + used.system) / 1000);
    return recorded;
  }
}

/** Means over some turns of an arm (rounds, model requests, tokens, gold in round 1). */
export function means(turns: readonly TurnResult[]) {
  const mean = (pick: (turn: TurnResult) => number) => turns.reduce((sum, turn) => sum + pick(turn), 0) / Math.max(1, turns.length);
  return {
    rounds: mean((turn) => turn.rounds),
    requests: mean((turn) => turn.requests),
    definitionTokens: mean((turn) => turn.definitionTokens),
    promptTokens: mean((turn) => turn.promptTokens),
    goldInRound1: mean((turn) => (turn.gold ? 1 : 0)),
  };
}
