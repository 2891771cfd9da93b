/** Replaced at build time by esbuild (`define`); falls back for tsx-run tests. */
declare const __TOOLSHED_VERSION__: string | undefined;
export const TOOLSHED_VERSION: string = typeof __TOOLSHED_VERSION__ === 'string' ? __TOOLSHED_VERSION__ : '0.0.0-dev';
