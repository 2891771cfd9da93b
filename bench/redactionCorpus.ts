/**
 * The labelled redaction corpus (test/fixtures/redaction-corpus.jsonl): realistic but fake
 * secrets in context, and look-alikes that must pass untouched. Shared by the unit test that
 * asserts the targets and by bench/safety.bench.mjs that reports them.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface CorpusRow {
  label: 'secret' | 'benign';
  kind: string;
  text: string;
  /** For secrets: the part that must not survive redaction. */
  secret?: string;
}

export interface CorpusScore {
  secrets: number;
  benign: number;
  recall: number;
  falsePositiveRate: number;
  missed: CorpusRow[];
  overRedacted: Array<CorpusRow & { output: string }>;
}

export function readRedactionCorpus(root: string): CorpusRow[] {
  const text = readFileSync(path.join(root, 'test', 'fixtures', 'redaction-corpus.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as CorpusRow);
}

/** A secret counts as caught when its value is gone; a look-alike is a false positive when anything changed. */
export function scoreRedaction(rows: readonly CorpusRow[], redact: (text: string) => string): CorpusScore {
  const missed: CorpusRow[] = [];
  const overRedacted: Array<CorpusRow & { output: string }> = [];
  let secrets = 0;
  let benign = 0;
  for (const row of rows) {
    const output = redact(row.text);
    if (row.label === 'secret') {
      secrets++;
      if (output.includes(row.secret ?? row.text)) missed.push(row);
    } else {
      benign++;
      if (output !== row.text) overRedacted.push({ ...row, output });
    }
  }
  return {
    secrets,
    benign,
    recall: secrets ? (secrets - missed.length) / secrets : 1,
    falsePositiveRate: benign ? overRedacted.length / benign : 0,
    missed,
    overRedacted,
  };
}
