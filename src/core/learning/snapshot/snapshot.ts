import { z } from 'zod';
import { skillRecordSchema } from '../../skills/skillSchema';
import type { SkillRecord } from '../../skills/skillSchema';
import { describeZodIssues } from '../../schema/zodSchemas';
import type { FeedbackCounters, Proposal } from '../learningStore';

/**
 * The learned-skills snapshot format: JSONL, one header line, then one line per
 * learned skill (the full record — lineage rides in `extra.lineage` — with its feedback
 * counters) and one per proposal. Parsing is strict: anything unexpected is an error naming the
 * line, so an import either understands the whole file or changes nothing.
 */

const SNAPSHOT_FORMAT = 'toolshed-learned-skills';
const SNAPSHOT_VERSION = 1;
/** Larger snapshots are refused before parsing (10,000 learned skills take a few MB). */
export const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

export interface SnapshotHeader {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  toolshed_version: string;
  /** Which skills were exported: `all`, or `project:<id>`. */
  scope: string;
  counts: { learned: number; proposals: number };
  exported_at: number;
}

export interface LearnedLine {
  record: SkillRecord;
  counters?: FeedbackCounters;
}

export interface Snapshot {
  header: SnapshotHeader;
  learned: LearnedLine[];
  proposals: Proposal[];
}

export function writeSnapshot(snapshot: Omit<Snapshot, 'header'> & { header: Omit<SnapshotHeader, 'format' | 'version' | 'counts'> }): string {
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    ...snapshot.header,
    counts: { learned: snapshot.learned.length, proposals: snapshot.proposals.length },
  };
  const lines = [
    JSON.stringify(header),
    ...snapshot.learned.map((line) => JSON.stringify({ kind: 'learned', record: line.record, ...(line.counters ? { counters: line.counters } : {}) })),
    ...snapshot.proposals.map((proposal) => JSON.stringify({ kind: 'proposal', proposal })),
  ];
  return `${lines.join('\n')}\n`;
}

const countersSchema = z.object({
  name: z.string(),
  helpful: z.number().int().nonnegative(),
  harmful: z.number().int().nonnegative(),
  use_count: z.number().int().nonnegative(),
  last_used: z.number(),
  last_validated: z.number(),
});

const candidateSchema = z
  .object({
    kind: z.enum(['positive', 'negative']),
    name: z.string().min(1),
    title: z.string(),
    trigger: z.string(),
    task_type: z.enum(['browser', 'api', 'code', 'domain', 'unknown']),
    tags: z.array(z.string()),
    steps: z.array(z.string()),
    failure_modes: z.array(z.string()),
    citations: z.object({ tools: z.array(z.string()), files: z.array(z.string()) }),
    source_hash: z.string().min(1),
  })
  .passthrough();

const proposalSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['proposed', 'approved', 'discarded']),
  candidate: candidateSchema,
  count: z.number().int().positive(),
  origin: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  approved_name: z.string(),
  stale_reason: z.string(),
});

const headerSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.number().int().positive(),
  toolshed_version: z.string(),
  scope: z.string(),
  counts: z.object({ learned: z.number().int().nonnegative(), proposals: z.number().int().nonnegative() }),
  exported_at: z.number(),
});

const lineSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('learned'), record: skillRecordSchema, counters: countersSchema.optional() }),
  z.object({ kind: z.literal('proposal'), proposal: proposalSchema }),
]);

/** Why a snapshot cannot be imported; nothing was changed. */
export class SnapshotError extends Error {}

/** Parses and checks a whole snapshot, or throws a SnapshotError saying what is wrong and what to do. */
export function parseSnapshot(bytes: Uint8Array): Snapshot {
  if (bytes.byteLength > MAX_SNAPSHOT_BYTES) {
    throw new SnapshotError(
      `The snapshot is ${(bytes.byteLength / 1048576).toFixed(1)} MB; the limit is ${MAX_SNAPSHOT_BYTES / 1048576} MB. Export fewer skills (one project) and import them in parts.`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SnapshotError('The snapshot is not UTF-8 text (corrupt or not a Toolshed snapshot). Export it again.');
  }
  const lines = text.split('\n');
  const parseLine = (index: number): unknown => {
    try {
      return JSON.parse(lines[index]!);
    } catch {
      throw new SnapshotError(`Line ${index + 1} of the snapshot is not valid JSON (corrupt or truncated). Export it again.`);
    }
  };
  if (!lines[0]?.trim()) throw new SnapshotError('The snapshot is empty. Export it again.');
  const rawHeader = parseLine(0) as Record<string, unknown> | null;
  if (!rawHeader || typeof rawHeader !== 'object' || rawHeader.format !== SNAPSHOT_FORMAT) {
    throw new SnapshotError(`This is not a Toolshed learned-skills snapshot (its first line should name the format "${SNAPSHOT_FORMAT}").`);
  }
  if (typeof rawHeader.version === 'number' && rawHeader.version > SNAPSHOT_VERSION) {
    throw new SnapshotError(
      `The snapshot has format version ${rawHeader.version} (written by Toolshed ${String(rawHeader.toolshed_version)}); this Toolshed reads up to version ${SNAPSHOT_VERSION}. Update Toolshed to import it.`,
    );
  }
  const header = headerSchema.safeParse(rawHeader);
  if (!header.success) throw new SnapshotError(`The snapshot header is damaged (${describeZodIssues(header.error, 'header', 1)}). Export it again.`);
  const learned: LearnedLine[] = [];
  const proposals: Proposal[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]!.trim()) continue;
    const parsed = lineSchema.safeParse(parseLine(i));
    if (!parsed.success) {
      throw new SnapshotError(
        `Line ${i + 1} of the snapshot is not a learned skill or proposal (${describeZodIssues(parsed.error, 'line', 1)}). Export it again.`,
      );
    }
    if (parsed.data.kind === 'learned') learned.push({ record: parsed.data.record as SkillRecord, counters: parsed.data.counters });
    else proposals.push(parsed.data.proposal as Proposal);
  }
  const { counts } = header.data;
  if (learned.length !== counts.learned || proposals.length !== counts.proposals || !text.endsWith('\n')) {
    throw new SnapshotError(
      `The snapshot is truncated or incomplete: its header lists ${counts.learned} learned skill(s) and ${counts.proposals} proposal(s), the file holds ${learned.length} and ${proposals.length}. Export it again.`,
    );
  }
  const names = new Map<string, number>();
  for (const { record } of learned) {
    const key = `${record.name}\u0000${record.scope_mode}\u0000${record.scope_tenant_id}\u0000${record.scope_project_id}`;
    names.set(key, (names.get(key) ?? 0) + 1);
  }
  const repeated = [...names].filter(([, n]) => n > 1).map(([key]) => key.split('\u0000')[0]!);
  if (repeated.length)
    throw new SnapshotError(
      `The snapshot names ${repeated.length === 1 ? 'a learned skill' : 'learned skills'} twice in one scope: ${repeated.slice(0, 10).join(', ')}${repeated.length > 10 ? ', …' : ''}. Each name may appear once per scope; fix or export the snapshot again.`,
    );
  const ids = new Set<string>();
  for (const proposal of proposals) {
    if (ids.has(proposal.id)) throw new SnapshotError(`The snapshot holds proposal ${proposal.id} twice. Export it again.`);
    ids.add(proposal.id);
  }
  return { header: header.data as SnapshotHeader, learned, proposals };
}
