// @ts-check
// `npm start`: build, then open examples/workspace with Toolshed and the offline demo model
// (examples/demo-model: a rule-based LanguageModelChatProvider and 108 example tools, never part of
// Toolshed's VSIX), so `@toolshed …` can be tried without any model account.
// - `code` on PATH: desktop VS Code with both as --extensionDevelopmentPath (your real models are
//   there too; pick one in the chat's model picker). TOOLSHED_DEMO_MODEL=off leaves the demo out.
// - otherwise: the offline host (code-server) on a free loopback port; open the printed URL in a
//   browser. Runs until Ctrl-C. Workspace trust is off in this demo profile, so the example
//   workspace opens trusted; TOOLSHED_TRUST=on keeps VS Code's default (Restricted Mode first).
//   The profile lives in .toolshed-host/start/; TOOLSHED_PORT picks the port.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACE = path.join(ROOT, 'examples', 'workspace');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
    process.exit(result.status || 1);
  }
}

/** @param {string} command */
function onPath(command) {
  return (process.env.PATH || '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

if (!existsSync(path.join(ROOT, 'node_modules'))) run(npm, ['install']);
run(npm, ['run', 'build']);

if (onPath('code') && process.env.TOOLSHED_START_OFFLINE !== '1') {
  const paths = [`--extensionDevelopmentPath=${ROOT}`];
  if (process.env.TOOLSHED_DEMO_MODEL !== 'off') {
    const { buildDemoModel } = await import('../examples/demo-model/build.mjs');
    paths.push(`--extensionDevelopmentPath=${(await buildDemoModel()).folder}`);
  }
  console.log(`Opening ${WORKSPACE} in VS Code with Toolshed from ${ROOT}${paths.length > 1 ? ' and the offline demo model' : ''}`);
  const child = spawn('code', [...paths, WORKSPACE], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const { HostSetupError, startHost } = await import('../test/host/offlineHost.mjs');
  try {
    const handle = await startHost({ workspace: WORKSPACE });
    console.log(`\nToolshed is running in VS Code at ${handle.url}`);
    console.log('Open it in a browser, then in the Chat view (right) type:');
    console.log('  @toolshed Which tests are flaky on CI this week?');
    console.log(`The model is "Toolshed Demo (offline)", a rule-based stand-in, with ${handle.demo?.tools ?? 0} example tools (all deferred):`);
    console.log('Toolshed activates the tools matching the request before the first round and the model calls');
    console.log('ci_list_flaky_tests directly (2 model requests). Then try');
    console.log('  @toolshed Is the air in Bergen safe to breathe today?');
    console.log('where no tool matches up front: the model finds one with tool_search first (3 model requests).');
    console.log('Workspace trust is off in this demo profile (TOOLSHED_TRUST=on to see Restricted Mode).');
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
