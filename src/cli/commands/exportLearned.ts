import { writeFileSync } from 'node:fs';
import type { CliCommand } from '../cliCommand';
import { exportLearnedSnapshot } from '../../core/learning/snapshot/snapshotTransfer';
import { TOOLSHED_VERSION } from '../../core/platform/version';
import { checkStorageFolder, openStores } from './learnedSnapshotSupport';
import { parseSkillArgs } from './skillCliSupport';

export const exportLearnedCommand: CliCommand = {
  path: ['export'],
  summary: 'Write learned skills, their counters, lineage and proposals as a snapshot (JSONL)',
  usage: [
    'Usage: toolshed export --storage DIR [--out FILE] [--project ID]',
    '',
    'DIR is the Toolshed storage folder (the extension\'s workspace storage, holding skills.db and learning.db).',
    'Writes a versioned snapshot: a header line {format, version, toolshed_version, scope, counts, exported_at},',
    'then one line per learned skill (with counters and lineage) and per proposal. --out FILE (default: stdout).',
    '--project ID exports only the learned skills of that project scope.',
    'Exit code: 0 on success, 2 on usage errors, 1 when the stores cannot be read.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, []);
    let folder: string;
    try {
      folder = checkStorageFolder(parsed.flags.get('storage'));
    } catch (error) {
      io.stderr(`toolshed export: ${(error as Error).message} See --help.\n`);
      return 2;
    }
    const project = parsed.flags.get('project');
    const stores = await openStores(folder);
    try {
      const result = exportLearnedSnapshot({ skills: stores.skills, store: stores.learning, mergeThreshold: 1 }, {
        toolshedVersion: TOOLSHED_VERSION, now: Date.now(), projectId: typeof project === 'string' ? project : undefined,
      });
      const out = parsed.flags.get('out');
      if (typeof out === 'string' && out) {
        writeFileSync(out, result.text);
        io.stderr(`Exported ${result.learned} learned skill(s) and ${result.proposals} proposal(s) to ${out}.\n`);
      } else {
        io.stdout(result.text);
      }
      return 0;
    } finally {
      stores.close();
    }
  },
};
