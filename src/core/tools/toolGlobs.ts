import picomatch from 'picomatch';

/**
 * Glob patterns over tool names (`mcp_github_*`, `tasks.*`, `tool_search`). `*` matches any
 * run of characters except `/`; dots are ordinary characters. Compiled once per pattern list.
 */
export class GlobSet {
  private readonly matchers: Array<{ pattern: string; test: (name: string) => boolean }>;

  constructor(patterns: readonly string[]) {
    this.matchers = patterns.map((pattern) => ({ pattern, test: picomatch(pattern, { dot: true }) }));
  }

  matches(name: string): boolean {
    return this.matchers.some((m) => m.test(name));
  }

  /** The first pattern that matches, in list order. */
  firstMatch(name: string): string | undefined {
    return this.matchers.find((m) => m.test(name))?.pattern;
  }
}

/** Looks a name up in a `glob → value` map; the first matching entry (insertion order) wins. */
export class GlobMap<V> {
  private readonly entries: Array<{ test: (name: string) => boolean; value: V }>;

  constructor(map: Readonly<Record<string, V>>) {
    this.entries = Object.entries(map).map(([pattern, value]) => ({ test: picomatch(pattern, { dot: true }), value }));
  }

  get(name: string): V | undefined {
    return this.entries.find((e) => e.test(name))?.value;
  }
}
