/**
 * Parses the JSON-with-comments VS Code writes for its own files (`mcp.json`, `settings.json`):
 * `//` and `/* … *\/` comments and trailing commas are allowed. Returns undefined for anything
 * that is still not JSON after that (a half-typed file is not an error for a reader of it).
 */
export function parseJsonWithComments(text: string): unknown {
  try {
    return JSON.parse(withoutTrailingCommas(withoutComments(text)));
  } catch {
    return undefined;
  }
}

/** Drops comments outside strings (a line comment keeps its line break, a block comment becomes a space). */
function withoutComments(text: string): string {
  return mapOutsideStrings(text, (i) => {
    if (text[i] === '/' && text[i + 1] === '/') {
      const lineEnd = text.indexOf('\n', i);
      return { out: '\n', next: lineEnd < 0 ? text.length : lineEnd + 1 };
    }
    if (text[i] === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      return { out: ' ', next: close < 0 ? text.length : close + 2 };
    }
    return { out: text[i]!, next: i + 1 };
  });
}

/** A comma followed only by white space and a closing bracket is dropped (strings kept as they are). */
function withoutTrailingCommas(text: string): string {
  return mapOutsideStrings(text, (i) => {
    if (text[i] === ',') {
      let next = i + 1;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      if (text[next] === '}' || text[next] === ']') return { out: '', next: i + 1 };
    }
    return { out: text[i]!, next: i + 1 };
  });
}

/** Walks the text once, copying strings verbatim; `step` says what a character outside them becomes and where to go on. */
function mapOutsideStrings(text: string, step: (i: number) => { out: string; next: number }): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    if (text[i] === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    const taken = step(i);
    out += taken.out;
    i = taken.next;
  }
  return out;
}

/** Index just past the string that starts at `start` (a quote), or the text's end when unclosed. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
