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

/** Walks the text once, copying strings verbatim and dropping comments outside them. */
function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
      out += ' ';
    } else {
      out += char;
    }
  }
  return out;
}

/** A comma followed only by white space and a closing bracket is dropped (strings kept as they are). */
function withoutTrailingCommas(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
      continue;
    }
    if (char === ',') {
      let next = i + 1;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      if (text[next] === '}' || text[next] === ']') continue;
    }
    out += char;
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
