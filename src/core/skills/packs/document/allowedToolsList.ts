/** The agentskills.io `allowed-tools` field: a space-separated list whose entries may hold spaces in parentheses. */

/** `Bash(git commit:*) Read Write` → ['Bash(git commit:*)', 'Read', 'Write'] (spaces inside parentheses kept). */
export function splitAllowedTools(value: unknown): string[] {
  if (Array.isArray(value))
    return value
      .filter((v): v is string => typeof v === 'string')
      .map((v) => v.trim())
      .filter(Boolean);
  if (typeof value !== 'string') return [];
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if ((ch === ' ' || ch === ',' || ch === '\n' || ch === '\t') && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** The tool name of an allowed-tools entry: `Bash(git:*)` → `Bash`. */
export function toolNameOfAllowed(entry: string): string {
  const paren = entry.indexOf('(');
  return (paren >= 0 ? entry.slice(0, paren) : entry).trim();
}
