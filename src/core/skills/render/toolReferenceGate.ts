/**
 * Tool-reference gating (docs/security.md#denied-tools-never-appear): skill text rendered for a
 * model must never name a tool the run may neither use nor activate. Such names are rewritten
 * into generic guidance ("a suitable tool (find it with tool_search)") — without the name — and
 * dropped from tool lists.
 *
 * Contract of the gate callback (supplied by the tool policy): `denied` means "a tool this run
 * may not see or activate"; names that are not tools at all should answer `visible` or
 * `unknown`, never `denied`. Which words are asked: names listed in the skill's `tools` /
 * `allowed-tools`, names in `knownToolNames` occurring as whole words (pass every registered tool
 * name for exact coverage; a NameFinder built once serves every request), and tool-shaped tokens of the text (`snake_case`, `dotted.name`, `kebab-case`,
 * `camelCase`, anything in backticks).
 */
import { NameFinder } from '../../search/nameFinder';
import { TOOL_SEARCH_TOOL_NAME } from '../../platform/toolNames';

export type ToolGateVerdict = 'visible' | 'activatable' | 'denied' | 'unknown';
export type ToolGate = (toolName: string) => ToolGateVerdict;

/** What the gate reads of a tool run (core/tools' `ToolRun`): what it shows now, and what it may use at all. */
interface RunToolAccess {
  isVisible(name: string): boolean;
  /** Visible now or activatable by this run (policy and visibility allow it). */
  isPermitted(name: string): boolean;
}

/**
 * The tool gate of a run: `visible` what it shows now, `activatable` what it may still activate,
 * `denied` a tool that exists (`knownToolNames`) but the run may not use, `unknown` anything else.
 * Without a run (agent mode, commands), what the catalog holds is activatable.
 */
export function runToolGate(run: RunToolAccess | undefined, catalog: { has(name: string): boolean }, knownToolNames: { has(name: string): boolean }): ToolGate {
  const isPermitted = (name: string) => (run ? run.isPermitted(name) : catalog.has(name));
  return (name) => {
    if (run?.isVisible(name)) return 'visible';
    if (isPermitted(name)) return 'activatable';
    return knownToolNames.has(name) ? 'denied' : 'unknown';
  };
}

const TOKEN = /[A-Za-z0-9_$][A-Za-z0-9_$]*(?:[.\-/:][A-Za-z0-9_$]+)*/g;
const BACKTICKED = /`([^`\n]{1,120})`/g;
/** Bound on re-checking rewritten text (a pass costs one scan of the text). */
const MAX_REWRITE_PASSES = 64;

export class ToolReferenceGate {
  private readonly verdicts = new Map<string, boolean>();
  private readonly known: NameFinder;
  private readonly replacement: string;

  constructor(
    private readonly gate: ToolGate | undefined,
    knownToolNames: Iterable<string> | NameFinder = [],
  ) {
    this.known = knownToolNames instanceof NameFinder ? knownToolNames : new NameFinder(knownToolNames);
    this.replacement = gate && this.isDenied(TOOL_SEARCH_TOOL_NAME) ? 'a suitable tool' : `a suitable tool (find it with ${TOOL_SEARCH_TOOL_NAME})`;
  }

  get active(): boolean {
    return this.gate !== undefined;
  }

  isDenied(name: string): boolean {
    if (!this.gate) return false;
    let denied = this.verdicts.get(name);
    if (denied === undefined) {
      try {
        denied = this.gate(name) === 'denied';
      } catch {
        denied = true; // fail closed
      }
      this.verdicts.set(name, denied);
    }
    return denied;
  }

  /**
   * Whether the run may use `name` (the gate answers `visible` or `activatable`). Unlike
   * `isDenied`, an `unknown` name is not usable: only real tools the run may use pass.
   */
  isUsable(name: string): boolean {
    if (!this.gate) return false;
    try {
      const verdict = this.gate(name);
      return verdict === 'visible' || verdict === 'activatable';
    } catch {
      return false; // fail closed
    }
  }

  /** Drops denied entries from a list of tool names (keeps order). */
  filterNames<T>(entries: readonly T[], nameOf: (entry: T) => string): T[] {
    if (!this.gate) return [...entries];
    return entries.filter((entry) => !this.isDenied(nameOf(entry)));
  }

  /** Rewrites every denied tool name in `text`; `candidates` are names always checked (skill metadata). */
  text(text: string, candidates: readonly string[] = []): string {
    if (!this.gate || !text) return text;
    const denied = new Set<string>();
    const consider = (name: string) => {
      if (name && !denied.has(name) && this.isDenied(name)) denied.add(name);
    };
    for (const name of candidates) if (text.includes(name)) consider(name);
    for (const name of this.known.occurringIn(text)) consider(name);
    TOKEN.lastIndex = 0;
    for (const match of text.matchAll(TOKEN)) {
      const token = match[0];
      if (looksLikeToolName(token)) consider(token);
      if (/[.:/]/.test(token)) for (const part of token.split(/[.:/]/)) if (looksLikeToolName(part)) consider(part);
    }
    BACKTICKED.lastIndex = 0;
    for (const match of text.matchAll(BACKTICKED)) {
      const inner = (match[1] ?? '').trim();
      consider(inner);
      consider(inner.replace(/\(.*$/, ''));
    }
    if (denied.size === 0) return text;
    let out = this.rewrite(text, denied);
    // A rewrite changes the characters next to it, so a known name that was part of a longer word
    // may now stand alone (`:x:x:x` with a name `:x` exposes one more per pass): look again until
    // none does (names inside the replacement excepted). Past the bound, what is still exposed is
    // replaced wherever it occurs, word or not.
    const exposedIn = (current: string) => this.known.occurringIn(current).filter((name) => !this.replacement.includes(name) && this.isDenied(name));
    for (let pass = 0; pass < MAX_REWRITE_PASSES; pass++) {
      const exposed = exposedIn(out);
      if (exposed.length === 0) return out;
      out = this.rewrite(out, exposed);
    }
    for (const name of exposedIn(out).sort(longestFirst)) out = out.split(name).join(this.replacement);
    return out;
  }

  private rewrite(text: string, denied: Iterable<string>): string {
    let out = text;
    // Longest first (a name inside a longer one must not break it), then by name: the result
    // does not depend on the order the names were found in.
    for (const name of [...denied].sort(longestFirst)) {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      out = out
        .replace(new RegExp(`\`${escaped}(?:\\([^)\\n]*\\))?\``, 'g'), this.replacement)
        .replace(new RegExp(`(?<![A-Za-z0-9_$])${escaped}(?:\\([^)\\n]*\\))?(?![A-Za-z0-9_$])`, 'g'), this.replacement);
    }
    return out;
  }
}

function longestFirst(a: string, b: string): number {
  return b.length - a.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** snake_case, dotted.name, kebab-case or camelCase — words a tool name usually looks like. */
function looksLikeToolName(token: string): boolean {
  if (token.length < 3 || token.length > 120) return false;
  return /[_.\-/:]/.test(token) || /[a-z][A-Z]/.test(token);
}
