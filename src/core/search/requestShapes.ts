/**
 * What kind of general-purpose tool a request's shape asks for, whatever its words. Some asks
 * name neither the action nor the object of any tool: "how many people signed up this week" is a
 * question about records (a SQL query answers it), "whats using port 3000 on my machine" is about
 * this machine (a shell answers it), "what are people saying about the new laptop" is about the
 * world (a web search answers it). No word of those tools' descriptions is in them, so no word
 * table can bridge them without listing every ask; their shape can. Each shape is a property of
 * requests in general (a quantity asked, a local port or path, a question with nobody's things in
 * it, a page's address), never a word list taken from one set of requests. Which tools are general
 * purpose is read from the tools themselves (core/tools/index/generalTools.ts).
 */

/** What a general-purpose tool runs: a SQL statement, a shell command, a web search, a page fetch. */
export type GeneralKind = 'sql' | 'shell' | 'webSearch' | 'fetch';

// A quantity or an aggregate over records: how many, number of, top 10, total, average, per month.
const DATA_QUESTION =
  /\bhow (?:many|much)\b|\bnumber of\b|\b(?:top|bottom) \d+\b|\b(?:total|average|avg|median|sum of)\b|\bcount (?:of|the|all)\b|\bper (?:day|week|month|year|hour)\b|\b(?:grouped|broken down) by\b/i;

// This machine: a local port, localhost, "locally", "on my machine", a home or absolute local path,
// a command-line program with a subcommand (npm install, git stash, docker ps), or work on the
// working copy's own history (committed, uncommitted, stash, rebase, cherry-pick, amend).
const THIS_MACHINE =
  /\bport \d{2,5}\b|\blocalhost\b|\blocally\b|\b(?:my|this|the) (?:machine|laptop|computer|mac|box)\b|(?:^|\s)~\/|(?:^|\s)\/(?:usr|etc|var|tmp|home|opt|Users)\/|\b(?:npm|npx|yarn|pnpm|pip|pip3|brew|cargo|docker|kubectl|git|apt|apt-get)\s+[a-z][a-z-]+|\b(?:committed|uncommitted|stash|stashed|rebase|cherry-pick|amend)\b/i;

// A question: it opens with a question word or ends with a question mark.
const QUESTION = /^\s*(?:what|what's|whats|who|who's|when|where|which|why|how|is|are|does|do|did|can|could|should|will|was|were)\b|\?\s*$/i;
// Someone's own things or the conversation's parties: a question about them is not about the world.
const PERSONAL = /\b(?:i|i'm|im|i've|me|my|mine|we|we're|us|our|ours|you|your|yours)\b/i;
// A workspace value: a path, a #channel, an @handle, an issue or PR number, a file name.
// (Each part starts only where a word does, so a 100,000-character token costs one linear scan.)
const WORKSPACE_VALUE =
  /(?:^|\s)[#@][\w-]+|(?:^|\s)(?:\.{1,2}|~)\/|(?<![\w-])[\w-]+\/[\w.-]|(?<![\w-])[\w-]+\.(?:tsx?|jsx?|py|go|rs|java|json|ya?ml|md|sql|sh)\b/i;

// A page's address: a web address or a bare domain.
const PAGE_ADDRESS = /\bhttps?:\/\/|\bwww\.|(?<![@\w.-])[a-z0-9-]+\.(?:com|io|org|net|so|dev|app|co)\b(?!@)/i;

/** The general-purpose kinds `request`'s shape asks for, in a fixed order (at most one of each). */
export function requestShapes(request: string): GeneralKind[] {
  const kinds: GeneralKind[] = [];
  if (DATA_QUESTION.test(request)) kinds.push('sql');
  if (THIS_MACHINE.test(request)) kinds.push('shell');
  if (QUESTION.test(request) && !PERSONAL.test(request) && !WORKSPACE_VALUE.test(request) && !PAGE_ADDRESS.test(request)) kinds.push('webSearch');
  if (PAGE_ADDRESS.test(request)) kinds.push('fetch');
  return kinds;
}
