import type { SqlEngine } from '../sql/sqlEngine';
import { escapeForLine } from '../platform/lineText';
import { recordDoorDecision } from './doors/doorDecision';
import { toolshedHome } from './doors/doorFolder';
import type { DoorDecision } from './doors/doorDecision';
import { openDoorSession } from './doorSession';
import type { DoorPreflight, DoorSession } from './doorSession';
import { MAX_HOOK_EVENT_BYTES, parseHookEvent, RUNTIMES } from './runtimeDescriptors';
import type { RuntimeId } from './runtimeDescriptors';

/**
 * The prompt-submit hook (`toolshed hook <runtime>`): the event on stdin → skill pre-flight over
 * the workspace's door session → the skills that apply, in the runtime's answer format, or
 * nothing. It never breaks the user's prompt: anything that goes wrong (bad or huge input, no
 * prompt, a store that cannot be opened, an exception, the time budget) gives no context and
 * exactly one line for stderr; success says nothing on stderr.
 */

export interface PromptHookOptions {
  runtime: RuntimeId;
  /** The folder when the event names none (the runtime starts its hooks in the session's folder). */
  cwd: string;
  home?: string;
  env?: Readonly<Record<string, string | undefined>>;
  toolshedHome?: string;
  engine?: SqlEngine;
  /** Give up after this long (ms): no context, one stderr line. */
  budgetMs: number;
  /** Where the decision goes (default: the workspace's door journal, `recordDoorDecision`). */
  record?: (workspace: string, decision: DoorDecision) => string | undefined;
  /** Called once when the budget ran out (the CLI then lets the resident door finish the index). */
  onTimeout?: (workspace: string) => void;
  /** The door for the event's workspace (the resident process lends its open one); default: opened and closed for this event. */
  door?: (workspace: string) => Promise<{ door: DoorSession; release(): Promise<void> }>;
  /**
   * The door this event opens is handed over, not disposed (DoorSession.handOver): the caller has
   * claimed the start of a resident hook, which checks the library itself, and exits once the
   * answer is printed, not after the check of the whole library.
   */
  handOver?: boolean;
}

export interface PromptHookAnswer {
  /** What the hook prints on stdout ('' = no context). */
  stdout: string;
  /** One line for stderr, only when something went wrong. */
  stderr?: string;
  /** The decision, when pre-flight ran (for tests and the bench). */
  preflight?: DoorPreflight;
  workspace?: string;
}

const fail = (reason: string): PromptHookAnswer => ({ stdout: '', stderr: `toolshed hook: no skills added: ${escapeForLine(reason).slice(0, 400)}` });

class HookTimeout extends Error {}

/** Runs the hook over the event text (already read from stdin, at most `MAX_HOOK_EVENT_BYTES`). */
export async function runPromptHook(input: string | Uint8Array, options: PromptHookOptions): Promise<PromptHookAnswer> {
  if (input.length > MAX_HOOK_EVENT_BYTES) return fail(`the hook event is larger than ${MAX_HOOK_EVENT_BYTES} bytes`);
  let event;
  try {
    event = parseHookEvent(typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true }).decode(input));
  } catch (error) {
    return fail(error instanceof TypeError ? 'the hook event is not UTF-8' : (error as Error).message);
  }
  const workspace = event.cwd ?? options.cwd;
  const ownHome = options.toolshedHome ?? toolshedHome((options.env ?? process.env) as NodeJS.ProcessEnv, options.home);
  if (!event.prompt.trim()) return { stdout: '', workspace };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new HookTimeout(`pre-flight took longer than ${options.budgetMs} ms`));
    }, options.budgetMs);
  });
  const open =
    options.door ??
    (async (folder: string) => {
      const door = await openDoorSession({
        runtime: options.runtime,
        workspaceFolder: folder,
        home: options.home,
        env: options.env,
        toolshedHome: ownHome,
        engine: options.engine,
        collectAfterLargeLoad: false,
      });
      return { door, release: () => (options.handOver ? door.handOver() : door.dispose()) };
    });
  const work = (async () => {
    const lent = await open(workspace);
    try {
      if (timedOut) throw new HookTimeout('timed out');
      return await lent.door.preflight(event.prompt);
    } finally {
      await lent.release();
    }
  })();
  try {
    const preflight = await Promise.race([work, budget]);
    const decision: DoorDecision = {
      door: 'hook',
      runtime: options.runtime,
      action: 'inject',
      request: event.prompt,
      injected: preflight.injected.map((skill) => skill.name),
      offered: preflight.offered,
      searches: 1,
      tokens: preflight.tokens,
      skills: preflight.explanation,
      ...(preflight.note ? { note: preflight.note } : {}),
    };
    const recordProblem = (options.record ?? ((ws, d) => recordDoorDecision(ws, d, { home: ownHome })))(workspace, decision);
    return {
      stdout: preflight.context ? `${RUNTIMES[options.runtime].hookOutput(preflight.context)}\n` : '',
      ...(recordProblem ? { stderr: `toolshed hook: ${escapeForLine(recordProblem).slice(0, 400)}` } : {}),
      preflight,
      workspace,
    };
  } catch (error) {
    if (error instanceof HookTimeout) {
      options.onTimeout?.(workspace);
      work.catch(() => undefined);
    }
    return { ...fail(error instanceof Error ? error.message : String(error)), workspace };
  } finally {
    clearTimeout(timer);
  }
}
