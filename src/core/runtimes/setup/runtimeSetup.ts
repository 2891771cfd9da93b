import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { installLauncher, type LauncherRuntime, type LauncherSource } from './launcher';
import { applySetup, planSetup, type SetupPlan } from './setupPlan';
import type { SetupRuntime, SetupScope } from './runtimeTargets';

/** The gateway's upstream servers, in the `{"mcpServers": {...}}` shape the runtimes use. */
const GATEWAY_FILE = 'gateway.mcp.json';

export interface RuntimeSetupOptions {
  runtime: SetupRuntime;
  scope: SetupScope;
  /** The workspace folder (scope `workspace`). */
  workspace: string;
  remove: boolean;
  /** Also the `toolshed-gateway` entry (`toolshed mcp --upstream <home>/gateway.mcp.json`). */
  gateway: boolean;
  userHome: string;
  toolshedHome: string;
  launcher: LauncherRuntime;
  /** Where the launcher is copied from (the running CLI's or the extension's bundle). */
  source: LauncherSource;
  codexHome?: string;
}

export interface PreparedSetup {
  plan: SetupPlan;
  /** What else applying does, in words (the launcher, the gateway's file). */
  notes: string[];
  /** Writes it all; returns what it did beyond the plan's changes. */
  apply(): string[];
}

/**
 * `toolshed setup` and **Toolshed: Set Up Agent Runtimes…**: plans the runtime's entries (reading
 * every file first; a SetupError refuses before anything is written), and applies them on
 * request — the launcher first, so an entry never points at a launcher that is not there.
 */
export function prepareSetup(options: RuntimeSetupOptions): PreparedSetup {
  const gatewayFile = path.join(options.toolshedHome, GATEWAY_FILE);
  const plan = planSetup(
    {
      runtime: options.runtime,
      scope: options.scope,
      userHome: options.userHome,
      workspace: options.workspace,
      toolshedHome: options.toolshedHome,
      launcher: options.launcher,
      ...(options.gateway ? { gatewayFile } : {}),
      ...(options.codexHome ? { codexHome: options.codexHome } : {}),
    },
    options.remove,
  );
  const notes: string[] = [];
  const createGateway = options.gateway && !options.remove && !existsSync(gatewayFile);
  if (createGateway) notes.push(`Create ${gatewayFile} with no upstream servers (add yours under "mcpServers", as in a runtime's MCP config).`);
  if (!options.remove)
    notes.push(`Copy the CLI to ${path.join(options.toolshedHome, 'bin')} unless this version is there already (the entries run that copy).`);
  return {
    plan,
    notes,
    apply() {
      const done: string[] = [];
      if (!options.remove) {
        const { dir, installed } = installLauncher(options.toolshedHome, options.source);
        if (installed) done.push(`Copied the CLI ${options.source.version} to ${dir}.`);
      }
      if (createGateway) {
        mkdirSync(options.toolshedHome, { recursive: true });
        writeFileSync(gatewayFile, `${JSON.stringify({ mcpServers: {} }, null, 2)}\n`, { flag: 'wx' });
        done.push(`Created ${gatewayFile} with no upstream servers: add yours under "mcpServers".`);
      }
      applySetup(plan);
      return done;
    },
  };
}
