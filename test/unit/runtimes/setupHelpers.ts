import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { LAUNCHER_FILES } from '../../../src/core/runtimes/setup/launcher';
import { prepareSetup, type RuntimeSetupOptions } from '../../../src/core/runtimes/setup/runtimeSetup';
import type { SetupRuntime, SetupScope } from '../../../src/core/runtimes/setup/runtimeTargets';
import { tempFolder } from '../../tempFolder';

export const temp = (name = 'toolshed-setup-') => tempFolder(name);

/** A stand-in bundle (the launcher copies files; what they hold does not matter here). */
export function fakeDist(version = '1.2.3'): RuntimeSetupOptions['source'] {
  const dist = temp('toolshed-dist-');
  for (const file of LAUNCHER_FILES) writeFileSync(path.join(dist, file), `// ${file} ${version}\n`);
  return { distDir: dist, version };
}

export interface Homes {
  userHome: string;
  toolshedHome: string;
  workspace: string;
}

export function homes(): Homes {
  const userHome = temp('toolshed-home-');
  const workspace = temp('toolshed-ws-');
  mkdirSync(path.join(userHome, '.toolshed'));
  return { userHome, toolshedHome: path.join(userHome, '.toolshed'), workspace };
}

export function setup(
  h: Homes,
  runtime: SetupRuntime,
  options: { scope?: SetupScope; remove?: boolean; gateway?: boolean; source?: RuntimeSetupOptions['source'] } = {},
) {
  return prepareSetup({
    runtime,
    scope: options.scope ?? 'user',
    workspace: h.workspace,
    remove: options.remove ?? false,
    gateway: options.gateway ?? false,
    userHome: h.userHome,
    toolshedHome: h.toolshedHome,
    launcher: { executable: 'node', electron: false },
    source: options.source ?? fakeDist(),
  });
}
