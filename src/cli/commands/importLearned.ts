import { readFileSync, statSync } from 'node:fs';
import type { CliCommand } from '../cliCommand';
import { learningConfigSchema } from '../../core/config/settingsSchema';
import { MAX_SNAPSHOT_BYTES, SnapshotError } from '../../core/learning/snapshot/snapshot';
import { describeTenantMoves, importLearnedSnapshot } from '../../core/learning/snapshot/snapshotTransfer';
import { escapeForLine } from '../../core/platform/lineText';
import { checkStorageFolder, openStores } from './learnedSnapshotSupport';
import { parseSkillArgs } from './skillCliSupport';

export const importLearnedCommand: CliCommand = {
  path: ['import'],
  summary: 'Import a learned-skills snapshot (dedup, merge with lineage, never over pack skills)',
  usage: [
    'Usage: toolshed import FILE --storage DIR [--project ID] [--tenant ID] [--merge-threshold N] [--dry-run] [--json]',
    '',
    'DIR is the Toolshed storage folder (holding skills.db and learning.db). Identical skills are skipped,',
    'near-duplicates (similarity ≥ --merge-threshold, default 0.9) merge with lineage, a learned skill of the',
    'same name that is not similar is reported as a conflict and kept. --project ID moves project-scope skills',
    'into that project; --tenant ID moves tenant skills of another tenant into ID (--tenant "" leaves them out). A corrupt, truncated, newer or oversized snapshot, a name given twice, or a name taken',
    'by a pack skill is refused with one message and nothing is changed. --dry-run reports without writing.',
    'Exit code: 0 imported, 1 refused, 2 usage error.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: ['dry-run', 'json'], values: ['storage', 'project', 'tenant', 'merge-threshold'] });
    const file = parsed.positional[0];
    let folder: string;
    try {
      if (!file) throw new Error('give the snapshot FILE to import.');
      folder = checkStorageFolder(parsed.flags.get('storage'));
    } catch (error) {
      io.stderr(`toolshed import: ${(error as Error).message} See --help.\n`);
      return 2;
    }
    const threshold = learningConfigSchema.shape.mergeThreshold.safeParse(Number(parsed.flags.get('merge-threshold') ?? 0.9));
    if (!threshold.success) {
      io.stderr('toolshed import: --merge-threshold must be a number from 0.5 to 1.\n');
      return 2;
    }
    let bytes: Uint8Array;
    try {
      // Checked before reading, so a huge file, a FIFO or a device is refused without reading it.
      if (!statSync(file).isFile()) throw new SnapshotError(`${file} is not a regular file (a folder, FIFO or device); give the snapshot file.`);
      if (statSync(file).size > MAX_SNAPSHOT_BYTES)
        throw new SnapshotError(
          `The snapshot is ${(statSync(file).size / 1048576).toFixed(1)} MB; the limit is ${MAX_SNAPSHOT_BYTES / 1048576} MB. Export fewer skills (one project) and import them in parts.`,
        );
      bytes = readFileSync(file);
    } catch (error) {
      io.stderr(`toolshed import: ${escapeForLine((error as Error).message)}\n`);
      return 1;
    }
    const project = parsed.flags.get('project');
    const tenant = parsed.flags.get('tenant');
    const stores = await openStores(folder);
    try {
      const report = await importLearnedSnapshot({ skills: stores.skills, store: stores.learning, mergeThreshold: threshold.data }, bytes, {
        projectId: typeof project === 'string' ? project : undefined,
        tenantId: typeof tenant === 'string' ? tenant : undefined,
        dryRun: parsed.flags.has('dry-run'),
      });
      if (!parsed.flags.has('dry-run')) await stores.saveAndClose();
      else stores.close();
      if (parsed.flags.has('json')) {
        io.stdout(`${JSON.stringify(report)}\n`);
      } else {
        const line = (label: string, names: readonly string[]) => (names.length ? `${label}: ${names.map(escapeForLine).join(', ')}\n` : '');
        io.stdout(
          `${parsed.flags.has('dry-run') ? 'Would import' : 'Imported'}: ${report.added.length} added, ${report.merged.length} merged, ${report.unchanged.length} unchanged, ${report.conflicts.length} conflict(s); proposals ${report.proposalsAdded} added, ${report.proposalsSkipped} already here.${describeTenantMoves(report)}\n`,
        );
        io.stdout(
          line(
            'Merged',
            report.merged.map((m) => `${m.name} → ${m.into}`),
          ),
        );
        io.stdout(line('Conflicts (a learned skill of that name differs; yours kept)', report.conflicts));
      }
      return 0;
    } catch (error) {
      stores.close();
      if (!(error instanceof SnapshotError)) throw error;
      io.stderr(`toolshed import: ${escapeForLine(error.message)}\n`);
      return 1;
    }
  },
};
