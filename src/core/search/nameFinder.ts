/**
 * Which of many names (every registered tool: tens of thousands with large MCP servers) occur
 * in a text as whole words — in one pass over the text instead of one `includes` per name, which
 * cost ~10 ms per rendered skill at 20,000 tools.
 *
 * "Whole word" is the rule the tool-reference gate rewrites by: an occurrence not preceded or
 * followed by a word character (`[A-Za-z0-9_$]`). Such an occurrence of a name that begins with a
 * word character starts a run of word characters in the text, so each name is filed under its
 * own first run and only the text's runs are looked up. The few names that begin otherwise are
 * checked one by one.
 */

const WORD_RUN = /[A-Za-z0-9_$]+/g;
const LEADING_RUN = /^[A-Za-z0-9_$]+/;
const WORD_CHAR = /[A-Za-z0-9_$]/;

export class NameFinder {
  private readonly names: ReadonlySet<string>;
  private readonly byFirstRun = new Map<string, string[]>();
  private readonly irregular: string[] = [];

  constructor(names: Iterable<string>) {
    const unique = new Set<string>();
    for (const name of names) if (name.length > 0) unique.add(name);
    this.names = unique;
    for (const name of unique) {
      const run = LEADING_RUN.exec(name)?.[0];
      if (run === undefined) {
        this.irregular.push(name);
        continue;
      }
      const filed = this.byFirstRun.get(run);
      if (filed) filed.push(name);
      else this.byFirstRun.set(run, [name]);
    }
  }

  get size(): number {
    return this.names.size;
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  /** The names occurring in `text` as whole words (each once, in order of first occurrence). */
  occurringIn(text: string): string[] {
    const found = new Set<string>();
    for (const match of text.matchAll(WORD_RUN)) {
      const filed = this.byFirstRun.get(match[0]);
      if (!filed) continue;
      for (const name of filed)
        if (!found.has(name) && text.startsWith(name, match.index) && !WORD_CHAR.test(text.charAt(match.index + name.length))) found.add(name);
    }
    for (const name of this.irregular) if (!found.has(name) && occursAsWholeWord(text, name)) found.add(name);
    return [...found];
  }
}

function occursAsWholeWord(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (!WORD_CHAR.test(text.charAt(at - 1)) && !WORD_CHAR.test(text.charAt(at + name.length))) return true;
  }
  return false;
}
