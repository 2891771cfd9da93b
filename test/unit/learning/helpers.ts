import { learningConfigSchema } from '../../../src/core/config/settingsSchema';
import type { LearningConfig } from '../../../src/core/config/settingsSchema';
import { LearningService } from '../../../src/core/learning/learningService';
import { LearningStore } from '../../../src/core/learning/learningStore';
import type { Trajectory, TrajectoryCall } from '../../../src/core/learning/extraction/trajectory';
import { MemoryEventSink, MemoryLogger } from '../../../src/core/platform/basicPorts';
import type { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { engine, makeService } from '../skills/helpers';
import type { Harness } from '../skills/helpers';

export const PERSONAL = { workspaceRoots: ['/home/alice/work/shop'], homeDir: '/home/alice', userName: 'alice' };

/** The tools a harness window has (a failure report must name one of them). */
export const KNOWN_TOOLS = ['deploy_preview', 'deploy_login', 'unlock_env', 'set_config'];

export function turn(request: string, calls: TrajectoryCall[], extra: Partial<Trajectory> = {}): Trajectory {
  return { sessionId: 's1', request, calls, stoppedBecause: 'done', skillsUsed: [], at: 1_700_000_000_000, ...extra };
}

export interface LearningHarness extends Harness {
  learning: LearningService;
  store: LearningStore;
  learningEvents: MemoryEventSink;
  learningLogger: MemoryLogger;
  config: LearningConfig;
}

/** A real skill service and a real learning service sharing one in-memory byte store. */
export async function makeLearning(
  options: { config?: Partial<LearningConfig>; bytes?: MemoryByteStore; files?: Set<string>; tools?: readonly string[]; tenantId?: string } = {},
): Promise<LearningHarness> {
  const harness = await makeService({ bytes: options.bytes });
  const learningEvents = new MemoryEventSink();
  const learningLogger = new MemoryLogger();
  const store = await LearningStore.open({ engine: await engine(), store: harness.bytes, logger: learningLogger, clock: harness.clock });
  const config = learningConfigSchema.parse({ mode: 'propose', ...options.config });
  const learning = new LearningService({
    store,
    skills: harness.service,
    config: () => config,
    trusted: () => true,
    personal: () => PERSONAL,
    scope: () => ({ projectId: 'p1', tenantId: options.tenantId }),
    clock: harness.clock,
    events: learningEvents,
    logger: learningLogger,
    fileExists: (file) => options.files?.has(file) ?? true,
    knownTool: (name) => (options.tools ?? KNOWN_TOOLS).includes(name),
    frameFacts: (name) => harness.service.inspect(name),
  });
  harness.service.setScoreAdjuster(learning.adjuster);
  return { ...harness, learning, store, learningEvents, learningLogger, config };
}
