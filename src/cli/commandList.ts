import type { CliCommand } from './cliCommand';
import { benchSkillsCommand } from './commands/benchSkills';
import { benchToolsCommand } from './commands/benchTools';
import { benchToolModesCommand } from './commands/benchToolModes';
import { benchTurnEconomyCommand } from './commands/benchTurnEconomy';
import { benchPickPriorCommand } from './commands/benchPickPrior';
import { searchSkillsCommand } from './commands/searchSkills';
import { preflightSkillsCommand } from './commands/preflightSkills';
import { searchToolsCommand } from './commands/searchTools';
import { preflightToolsCommand } from './commands/preflightTools';
import { validateCommand } from './commands/validate';
import { exportLearnedCommand } from './commands/exportLearned';
import { importLearnedCommand } from './commands/importLearned';
import { ledgerCommand } from './commands/ledger';
import { hookCommand } from './commands/hook';
import { mcpCommand } from './commands/mcp';
import { whyCommand } from './commands/why';
import { setupCommand } from './commands/setup';
import { resetCoreSetCommand, undoPromotionCommand } from './commands/gatewayCoreSet';

/**
 * Every CLI subcommand, in the order `--help` lists them. Add one import and one entry per
 * command module under ./commands.
 */
export const COMMANDS: readonly CliCommand[] = [
  searchToolsCommand,
  preflightToolsCommand,
  benchToolsCommand,
  benchToolModesCommand,
  benchTurnEconomyCommand,
  benchPickPriorCommand,
  validateCommand,
  searchSkillsCommand,
  preflightSkillsCommand,
  benchSkillsCommand,
  exportLearnedCommand,
  importLearnedCommand,
  ledgerCommand,
  hookCommand,
  mcpCommand,
  whyCommand,
  setupCommand,
  undoPromotionCommand,
  resetCoreSetCommand,
];
