/**
 * The demo model's own sense of "this tool fits the request", the way a model reading its tool
 * list would call a listed tool instead of searching: word overlap, no understanding. Deliberately
 * independent of Toolshed's relevance gate — the demo is a stand-in for someone else's model.
 */

export interface MatchableTool {
  name: string;
  description?: string;
}

/** Toolshed's own tools (search, skills, reports) are never the answer to a request. */
const TOOLSHED_OWN = /^(tool_|skill_|skill$)/;

/** Words that say nothing about a capability. */
const FILLER = new Set(
  'a an the is are was were be been am to of in on at for by with from into about this that these those it its what which who whom when where how why do does did can could will would should shall may might must please me my mine i we our us you your any some there here and or but not no yes have has had get tell show give let today tomorrow now right just'.split(
    ' ',
  ),
);

/** A word's comparable form: lower case, a plural's final `s` dropped ("tests" = "test"). */
function stem(word: string): string {
  const lower = word.toLowerCase();
  return lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss') ? lower.slice(0, -1) : lower;
}

function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * The words of a request that could name a capability: no filler, and no place or person names
 * (a capitalised word after the first; they are arguments, not capabilities). "CI" stays.
 */
export function requestWords(request: string): string[] {
  const words = wordsOf(request).filter((word, i) => i === 0 || !/^\p{Lu}\p{Ll}+$/u.test(word));
  return [...new Set(words.map(stem).filter((word) => !FILLER.has(word) && !/^\d/.test(word)))];
}

/**
 * The listed tool that fits the request, if one does: at least half of the request's words
 * appear in the tool's name or description, and at least one of them in its name. Among several,
 * the one covering most words, then most name words, then the first listed.
 */
export function matchingTool<T extends MatchableTool>(request: string, tools: readonly T[]): T | undefined {
  const wanted = requestWords(request);
  if (wanted.length === 0) return undefined;
  let best: { tool: T; covered: number; inName: number } | undefined;
  for (const tool of tools) {
    if (TOOLSHED_OWN.test(tool.name)) continue;
    const nameWords = new Set(wordsOf(tool.name).map(stem));
    const allWords = new Set([...nameWords, ...wordsOf(tool.description ?? '').map(stem)]);
    const inName = wanted.filter((word) => nameWords.has(word)).length;
    const covered = wanted.filter((word) => allWords.has(word)).length;
    if (inName === 0 || covered * 2 < wanted.length) continue;
    if (!best || covered > best.covered || (covered === best.covered && inName > best.inName)) best = { tool, covered, inName };
  }
  return best?.tool;
}
