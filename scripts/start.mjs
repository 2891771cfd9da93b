// `npm start`: build, then open examples/workspace with the extension loaded.
// - `code` on PATH: desktop VS Code with --extensionDevelopmentPath (F5-like, reload to pick up rebuilds).
// - otherwise: the offline host (code-server) on a free loopback port; open the printed URL in a
//   browser. Runs until Ctrl-C. No test driver in this mode.
//   Workspace trust keeps VS Code's default (enabled): you see the real Restricted Mode prompt and
//   what the extension does before and after "Trust". The decision is remembered in
//   .toolshed-host/start/. TOOLSHED_TRUST=off disables trust; TOOLSHED_PORT picks the port.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACE = path.join(ROOT, 'examples', 'workspace');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
    process.exit(result.status || 1);
  }
}

function onPath(command) {
  return (process.env.PATH || '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

if (!existsSync(path.join(ROOT, 'node_modules'))) run(npm, ['install']);
run(npm, ['run', 'build']);

if (onPath('code') && process.env.TOOLSHED_START_OFFLINE !== '1') {
  console.log(`Opening ${WORKSPACE} in VS Code with the extension from ${ROOT}`);
  const child = spawn('code', [`--extensionDevelopmentPath=${ROOT}`, WORKSPACE], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const { HostSetupError, startHost } = await import('../test/host/offlineHost.mjs');
  try {
    const handle = await startHost({ workspace: WORKSPACE });
    console.log(`\nToolshed is running in VS Code at ${handle.url}`);
    console.log(`(server log: ${path.relative(ROOT, handle.serverLogPath)}; Ctrl-C to stop)`);
    handle.server.on('exit', (code) => {
      console.error(`code-server exited (code ${code})`);
      process.exit(code || 1);
    });
  } catch (error) {
    console.error(error instanceof HostSetupError ? error.message : error);
    process.exit(error instanceof HostSetupError ? 2 : 1);
  }
}
