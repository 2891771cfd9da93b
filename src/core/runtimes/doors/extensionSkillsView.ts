import type { Logger } from '../../platform/ports';
import type { SkillService } from '../../skills/skillService';
import { sameContent } from '../../skills/store/learned/learnedSkillJournal';
import { identityKey } from '../../skills/store/skillScope';
import { learnedForWorkspace, publishedSkillsStamp, readPublishedSkills } from './publishedSkills';
import type { PublishedSkills } from './publishedSkills';

/**
 * A door's view of what the extension published for its workspace (`publishedSkills.ts`): the
 * retired names and tenant its requests carry, read again only after the file changed (one
 * `stat` per request otherwise), and the learned skills it brings into the door's own store.
 */
export class ExtensionSkillsView {
  private stamp: string | undefined;
  private published: PublishedSkills | undefined;
  private retiredSet: ReadonlySet<string> = new Set();
  private appliedStamp: string | undefined;

  constructor(
    private readonly doorFolder: string,
    private readonly workspaceFolder: string,
    private readonly logger?: Logger,
  ) {}

  /** The published state now; a damaged file keeps the last good one (and says so once). */
  current(): PublishedSkills | undefined {
    const stamp = publishedSkillsStamp(this.doorFolder);
    if (stamp === this.stamp) return this.published;
    this.stamp = stamp;
    const read = readPublishedSkills(this.doorFolder);
    if (read.status === 'damaged') {
      this.logger?.warn(`The extension's skills for this workspace could not be read (${read.reason}); the last ones read stay in use.`);
      return this.published;
    }
    // Absent: the extension never wrote one (or it was deleted); no retirements to honour.
    this.published = read.status === 'read' ? read.skills : undefined;
    this.retiredSet = new Set(this.published?.retired ?? []);
    return this.published;
  }

  /** The skills the user retired for this workspace in the extension. */
  retired(): ReadonlySet<string> {
    this.current();
    return this.retiredSet;
  }

  tenantId(): string | undefined {
    return this.current()?.tenantId || undefined;
  }

  /**
   * Makes the learned skills of the door's store the published ones — adds, updates, removes —
   * when the file changed since the last time; a door whose file is absent keeps its own. A
   * failure is logged: the door serves what it has.
   */
  async apply(skills: Pick<SkillService, 'learnedSkills' | 'removeLearnedSkill' | 'restoreLearnedSkills'>): Promise<void> {
    const published = this.current();
    if (this.appliedStamp === this.stamp) return;
    this.appliedStamp = this.stamp;
    if (!published) return;
    try {
      const wanted = learnedForWorkspace(published, this.workspaceFolder);
      const wantedKeys = new Set(wanted.map(identityKey));
      const held = new Map(skills.learnedSkills().map((record) => [identityKey(record), record]));
      for (const [key, record] of held) if (!wantedKeys.has(key)) await skills.removeLearnedSkill(record.name, record);
      const changed = wanted.filter((record) => {
        const mine = held.get(identityKey(record));
        return !mine || !sameContent(mine, record);
      });
      if (changed.length > 0) await skills.restoreLearnedSkills(changed);
    } catch (error) {
      this.logger?.warn(`The extension's learned skills were not brought into this door (${error instanceof Error ? error.message : String(error)}).`);
    }
  }
}
