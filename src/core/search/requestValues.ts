import { analyze, withoutContractions } from './textAnalysis';

/**
 * The parts of a request that are values the user has — a web address, a path or file name, a
 * quoted name or message, a pasted error or SQL statement — not words for what they want done.
 * "pull the pricing tiers from notion.so/pricing" asks to read pages, not for Notion or prices;
 * "TypeError: Cannot read properties of undefined at Cart.tsx:42 -- how many users hit this?"
 * asks about an error's reach, not about reading properties. A value's words still count (they
 * name the thing), at a fraction of an ask's weight, as words on code lines do
 * (requestTerms.ts); what the value's form says is brought by `formCues` (toolVocabulary.ts).
 */
// Each pattern can start only where a value can (not inside a word), so a 100,000-character token costs one linear scan.
const VALUE_SPANS: readonly RegExp[] = [
  // A web address, or a bare domain with its path.
  /\bhttps?:\/\/\S+|\bwww\.\S+|(?<![@\w.-])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|io|org|net|so|dev|app|co)\b(?!@)(?:\/\S*)?/gi,
  // A path: ./x, ../x, ~/x, a/b/c.
  /(?<!\S)(?:\.{1,2}|~)\/\S*|(?<![\w/.-])[\w-]+(?:\/[\w.-]+)+/g,
  // A file name with a source, data or log extension, with an optional :line(:column).
  /(?<![\w.-])[\w.-]+\.(?:tsx?|jsx?|mjs|cjs|py|rb|go|rs|java|kt|cs|cpp|c|h|php|json|ya?ml|toml|md|txt|csv|log|sql|sh|html|css|env)(?::\d+)*\b/gi,
  // Quoted text: a name, a title, a message to write (an apostrophe inside a word is not a quote).
  /(?<!\w)'[^'\n]{1,200}'(?!\w)|"[^"\n]{1,200}"|`[^`\n]{1,200}`|\u201c[^\u201d\n]{1,200}\u201d|\u2018[^\u2019\n]{1,200}\u2019(?!\w)/g,
  // An error as a runtime prints it, up to a dash separator or the end of its line.
  /\b[A-Z]\w*(?:Error|Exception):[^\n]*?(?=\s(?:--|\u2014)\s|\n|$)/g,
  // A number, an id or an address of digits (#77, 1193, 203.0.113.7, 9:30).
  /(?<![\w.:#-])#?\d+(?:[.:/-]\d+)*(?![\w.:/-])/g,
  // A SQL statement, up to its semicolon or the end of its line.
  /\b(?:select\b[^;\n]{0,200}?\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from|create\s+(?:table|index|view))\b[^;\n]*/gi,
];

/** The analysed terms of `query` that occur only inside values (never in the words around them). */
export function valueOnlyTerms(query: string): Set<string> {
  let rest = query;
  const inValues = new Set<string>();
  for (const pattern of VALUE_SPANS) {
    rest = rest.replace(pattern, (span) => {
      for (const term of analyze(withoutContractions(span))) inValues.add(term);
      return ' ';
    });
  }
  if (inValues.size === 0) return inValues;
  for (const term of analyze(withoutContractions(rest))) inValues.delete(term);
  return inValues;
}
