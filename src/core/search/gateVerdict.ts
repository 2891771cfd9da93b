/**
 * What a relevance gate decided for one candidate and why, with the numbers it compared: the
 * tool gate (tools/requestMatch.ts) and the skill gate (skills/relevantSkills.ts) return one per
 * candidate, and every explanation (`/why`, Explain Last Turn, `toolshed preflight … --explain`)
 * prints these verdicts rather than working the decision out again.
 */
export type GateVerdict =
  | { passed: true }
  /** The text looks stuffed (search/broadVocabulary.ts): why, in words. */
  | { passed: false; rule: 'stuffed'; reason: string }
  /** Below the absolute minimum (the setting, or the stricter minimum of a long request's sentence). */
  | { passed: false; rule: 'minRelevance'; relevance: number; minimum: number }
  /** Tools: too few of the request's words in the tool's text (two, one of them in its name, or three). */
  | { passed: false; rule: 'words'; shared: number; inName: boolean }
  /** Below `cut` × the best candidate's relevance. */
  | { passed: false; rule: 'relativeCut'; relevance: number; best: number; cut: number }
  /** Passed, but `max` candidates ranked before it had already passed. */
  | { passed: false; rule: 'cap'; position: number; max: number };
