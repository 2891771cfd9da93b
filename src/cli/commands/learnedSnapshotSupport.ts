import { existsSync, statSync } from 'node:fs';
import { LearningStore } from '../../core/learning/learningStore';
import { nullLogger, systemClock } from '../../core/platform/basicPorts';
import { NodeByteStore } from '../../core/platform/nodeByteStore';
import type { SkillService } from '../../core/skills/skillService';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import { cliSkillService } from './skillCliSupport';

/**
 * Opens the stores of one Toolshed storage folder (the extension's workspace storage: where
 * `skills.db`, its learned-skill journal and `learning.db` live) for `toolshed export|import`.
 */
export interface OpenedStores {
  skills: SkillService;
  learning: LearningStore;
  /** Saves both stores (only after a successful import) and closes them. */
  saveAndClose(): Promise<void>;
  /** Closes without saving anything. */
  close(): void;
}

export function checkStorageFolder(folder: string | true | undefined): string {
  if (typeof folder !== 'string' || !folder)
    throw new Error("give --storage DIR: the Toolshed storage folder holding skills.db and learning.db (the extension's workspace storage).");
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`--storage ${folder} is not a folder.`);
  return folder;
}

export async function openStores(folder: string): Promise<OpenedStores> {
  const engine = await loadSqlEngine();
  const bytes = new NodeByteStore(folder);
  const skills = await cliSkillService({ store: bytes, engine });
  const learning = await LearningStore.open({ engine, store: bytes, logger: nullLogger, clock: systemClock });
  return {
    skills,
    learning,
    async saveAndClose() {
      await learning.save();
      learning.close();
      await skills.dispose();
    },
    close() {
      learning.close();
    },
  };
}
