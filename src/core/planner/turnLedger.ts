import type { LedgerStore } from '../ledger/ledgerStore';
import type { LedgerTurn } from '../ledger/ledgerTurn';
import { TOOLSHED_TOOL_NAMES } from '../platform/toolNames';
import { declaredToolNames } from '../skills/render/skillRendering';
import type { SkillRecord } from '../skills/skillSchema';
import { toolSourceFrom } from '../tools/modes/toolSources';
import type { ToolRecord } from '../tools/toolRecord';
import { ledgerTurnFrom } from './ledgerTurnFrom';
import type { PlannerOutcome } from './plannerLoop';

/**
 * Records a finished @toolshed turn in the ledger. The extension calls it with the outcome its
 * footer was written from, and the session bench calls it after the same turn function, so the
 * ledger's numbers are the footer's.
 */

export interface TurnLedgerSources {
  /** The tool catalog (what the turn's tools are, who provides them, how big their definitions are). */
  registry: ReadonlyMap<string, ToolRecord>;
  /** A skill's record, for the tools it names (absent: the skill names none). */
  skill(name: string): SkillRecord | undefined;
}

const OWN_TOOLS = new Set<string>(TOOLSHED_TOOL_NAMES);
const NO_FACTS = { ownTools: OWN_TOOLS, declaredBy: () => undefined, mcpServers: [] };

/** Who provides a tool, as the ledger groups servers: the MCP server's id in tool names, `Toolshed`, `extension` or `built-in`. */
export function ledgerServerOf(name: string, record: Pick<ToolRecord, 'tags' | 'source'> | undefined): string {
  const source = toolSourceFrom({ name, tags: record?.tags ?? [] }, NO_FACTS);
  if (source.kind === 'mcp') return source.server;
  if (source.kind === 'toolshed') return 'Toolshed';
  return record?.source === 'extension' ? 'extension' : 'built-in';
}

/** Relative size of a tool's definition as the model receives it (name, description, input schema). */
function definitionSize(record: ToolRecord | undefined, name: string): number {
  if (!record) return name.length;
  return name.length + record.description.length + JSON.stringify(record.inputSchema ?? {}).length;
}

function turnLedgerEntry(outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>, sources: TurnLedgerSources, at: number): LedgerTurn {
  return ledgerTurnFrom(outcome, {
    at,
    serverOf: (name) => ledgerServerOf(name, sources.registry.get(name)),
    definitionSize: (name) => definitionSize(sources.registry.get(name), name),
    skillTools: (name) => {
      const record = sources.skill(name);
      return record ? declaredToolNames(record) : [];
    },
  });
}

/** Adds the turn to the ledger; returns what was recorded. */
export function recordTurn(
  ledger: LedgerStore,
  outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>,
  sources: TurnLedgerSources,
  at: number,
): LedgerTurn {
  const entry = turnLedgerEntry(outcome, sources, at);
  ledger.record(entry);
  return entry;
}
