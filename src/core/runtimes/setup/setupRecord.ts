import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * What `toolshed setup` added to lists of plain strings that the user shares with it — Claude
 * Code's `permissions.allow` — kept in `<toolshed home>/setup-owned.json`. A hook or a server
 * entry shows it is Toolshed's (it runs the launcher); a string such as
 * `mcp__toolshed__search_skills` does not, and the user may have written the same rule. So
 * setup adds only the strings that are missing, records those, and `--remove` takes out only
 * what the record names. Without the record (deleted, or unreadable) a removal leaves the strings
 * where they are: the safe way round.
 *
 * The file: `{"version": 1, "lists": {"<file>#<dotted path>": {"added": [...], "created": N}}}`,
 * `created` counting the containers at the end of the path that setup created (and may delete
 * again once they are empty).
 */

const SETUP_RECORD_FILE = 'setup-owned.json';

interface OwnedStrings {
  added: string[];
  created: number;
}

export class SetupRecord {
  private changed = false;

  private constructor(
    readonly file: string,
    private readonly lists: Record<string, OwnedStrings>,
    /** Whether the file was there (its text), for the plan's write. */
    readonly existed: boolean,
  ) {}

  static read(toolshedHome: string): SetupRecord {
    const file = path.join(toolshedHome, SETUP_RECORD_FILE);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return new SetupRecord(file, {}, false);
    }
    return new SetupRecord(file, parseLists(text), true);
  }

  static key(file: string, keys: readonly string[]): string {
    return `${file}#${keys.join('.')}`;
  }

  get(key: string): OwnedStrings | undefined {
    return this.lists[key];
  }

  set(key: string, owned: OwnedStrings | undefined): void {
    const before = JSON.stringify(this.lists[key]);
    if (owned && owned.added.length > 0) this.lists[key] = owned;
    else delete this.lists[key];
    if (JSON.stringify(this.lists[key]) !== before) this.changed = true;
  }

  /** The file's new text when planning changed it, else undefined. */
  text(): string | undefined {
    if (!this.changed) return undefined;
    return `${JSON.stringify({ version: 1, lists: this.lists }, null, 2)}\n`;
  }
}

/** The record's lists; anything it cannot read counts as nothing recorded (then nothing is removed). */
function parseLists(text: string): Record<string, OwnedStrings> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  const lists = (value as { lists?: unknown } | null)?.lists;
  if (!lists || typeof lists !== 'object' || Array.isArray(lists)) return {};
  const out: Record<string, OwnedStrings> = {};
  for (const [key, entry] of Object.entries(lists as Record<string, unknown>)) {
    const { added, created } = (entry ?? {}) as { added?: unknown; created?: unknown };
    if (!Array.isArray(added)) continue;
    out[key] = {
      added: added.filter((item): item is string => typeof item === 'string'),
      created: typeof created === 'number' && Number.isInteger(created) && created >= 0 ? created : 0,
    };
  }
  return out;
}
