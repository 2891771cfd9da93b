import { strict as assert } from 'node:assert';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The offline host is installed by an `npm install` that runs inside `npm test` / `npm start`.
// The outer npm's run-time variables must not reach it: code-server's postinstall reads the Node
// version from npm_config_user_agent and refused to install, so a cold install failed.
describe('host install: environment of the nested npm install', () => {
  it('drops the outer npm run-time variables and keeps registry, cache and proxy settings', async () => {
    const module = (await import(pathToFileURL(path.join(__dirname, '..', '..', 'host', 'offlineHost.mjs')).href)) as {
      nestedNpmEnv: (env: Record<string, string | undefined>) => Record<string, string>;
    };
    const outer = {
      PATH: '/usr/bin',
      HOME: '/root',
      npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
      npm_config_local_prefix: '/work/main',
      npm_node_execpath: '/usr/bin/node',
      npm_lifecycle_event: 'test',
      npm_package_name: 'toolshed',
      npm_config_allow_scripts: '',
      npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
      INIT_CWD: '/work/main',
      npm_config_registry: 'https://registry.example/',
      npm_config_cache: '/tmp/npm-cache',
      NPM_CONFIG_HTTPS_PROXY: 'http://proxy:3128',
      TOOLSHED_HOST_CACHE: '/tmp/host',
    };
    const env = module.nestedNpmEnv(outer);
    assert.deepEqual(env, {
      PATH: '/usr/bin',
      HOME: '/root',
      npm_config_registry: 'https://registry.example/',
      npm_config_cache: '/tmp/npm-cache',
      NPM_CONFIG_HTTPS_PROXY: 'http://proxy:3128',
      TOOLSHED_HOST_CACHE: '/tmp/host',
    });
  });
});
