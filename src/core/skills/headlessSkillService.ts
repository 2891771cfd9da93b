import { skillsConfigSchema } from '../config/settingsSchema';
import type { SkillsConfig } from '../config/settingsSchema';
import { lengthTokenCounter, nullEventSink, nullLogger, systemClock } from '../platform/basicPorts';
import { nodeFileSystem } from '../platform/nodeFileSystem';
import { createSkillService } from './skillService';
import type { SkillService, SkillServiceDeps } from './skillService';

export type HeadlessSkillServiceOptions = Pick<SkillServiceDeps, 'engine' | 'store'> &
  Partial<Omit<SkillServiceDeps, 'engine' | 'store' | 'config'>> & {
    /** Settings over the defaults; agent-skill folders are off unless turned on here. */
    config?: Partial<SkillsConfig>;
  };

/**
 * A skill service outside the editor (the CLI, the benchmarks, the tests): by default nothing is
 * logged or emitted, tokens are counted by length, files are read through Node, the clock is
 * the system's, the environment is empty, every change is saved at once, and the user's
 * agent-skill folders are not scanned (only the packs given are loaded).
 */
export function createHeadlessSkillService(options: HeadlessSkillServiceOptions): Promise<SkillService> {
  return createSkillService({
    ...options,
    logger: options.logger ?? nullLogger,
    events: options.events ?? nullEventSink,
    clock: options.clock ?? systemClock,
    tokenCounter: options.tokenCounter ?? lengthTokenCounter,
    fs: options.fs ?? nodeFileSystem,
    env: options.env ?? {},
    autoSaveDelayMs: options.autoSaveDelayMs ?? 0,
    config: skillsConfigSchema.parse({ includeAgentSkillFolders: false, ...options.config }),
  });
}
