import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * What the docs test reads: the user and maintainer pages, their fenced examples and the
 * `toolshed.*` names and CLI lines in them.
 */

export const ROOT = path.resolve(__dirname, '..', '..', '..');

export const DOC_FILES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

export function readDoc(doc: string): string {
  return readFileSync(path.join(ROOT, doc), 'utf8');
}

export interface Fence {
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The first word of the info string (`yaml`, `markdown`, `sh`, …). */
  language: string;
  /** `key=value` words after the language: `skill-file=fix-lint.skill.md`, `tools-yaml=…`. */
  marks: Map<string, string>;
  body: string;
}

/** Every fenced block of a Markdown file, with the marks of its info string. */
export function fencesOf(doc: string): Fence[] {
  const lines = readDoc(doc).split('\n');
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]);
    if (!open) continue;
    const words = open[1].trim().split(/\s+/).filter(Boolean);
    const marks = new Map<string, string>();
    for (const word of words.slice(1)) {
      const eq = word.indexOf('=');
      marks.set(eq < 0 ? word : word.slice(0, eq), eq < 0 ? '' : word.slice(eq + 1));
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    fences.push({ doc, line: start + 1, language: words[0] ?? '', marks, body: `${body.join('\n')}\n` });
  }
  return fences;
}

/** The text outside fenced blocks, line numbers kept (fenced lines become empty). */
export function proseOf(doc: string): string[] {
  let inFence = false;
  return readDoc(doc)
    .split('\n')
    .map((line) => {
      if (/^```/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    });
}

export interface Mention {
  doc: string;
  line: number;
  text: string;
}

/** Every `toolshed.a.b` name in prose and fences (a trailing full stop is not part of it). */
export function toolshedNames(doc: string): Mention[] {
  const out: Mention[] = [];
  readDoc(doc)
    .split('\n')
    .forEach((line, i) => {
      for (const match of line.matchAll(/(?<![\w/-])toolshed\.[A-Za-z][\w.]*[\w*]/g)) out.push({ doc, line: i + 1, text: match[0] });
    });
  return out;
}

/**
 * The CLI invocations a page shows: `node dist/cli.js …` and `toolshed …` in shell fences and
 * in inline code, each as its words (up to a comment).
 */
export function cliLines(doc: string): Mention[] {
  const out: Mention[] = [];
  const add = (line: number, text: string) => {
    const words = text.replace(/\s+#.*$/, '').trim();
    out.push({ doc, line, text: words.replace(/^node\s+(--\S+\s+)*dist\/cli\.js/, 'toolshed') });
  };
  for (const fence of fencesOf(doc)) {
    if (!['', 'sh', 'bash', 'shell', 'console'].includes(fence.language)) continue;
    fence.body.split('\n').forEach((line, i) => {
      if (/^(node\s+(--\S+\s+)*dist\/cli\.js|toolshed)\s/.test(line.trim())) add(fence.line + 1 + i, line.trim());
    });
  }
  proseOf(doc).forEach((line, i) => {
    for (const match of line.matchAll(/`((?:node\s+(?:--\S+\s+)*dist\/cli\.js|toolshed)\s[^`]+)`/g)) add(i + 1, match[1]);
  });
  return out;
}
