/** Entry points of the runtime for the CLI (the composition root). */
export { buildServer } from './server.js';
export type { BuildServerOptions, LoggerOptions } from './server.js';
export type { ReloadResult, WharfRuntime } from './wharf-runtime.js';
export { gatewayOf } from './gateway-handle.js';
export type { GatewayHandle } from './gateway-handle.js';
export { startServer } from './start.js';
export type { StartServerOptions, StartedServer } from './start.js';
export { loadSettings } from './settings/load-settings.js';
export type { Settings, LoadSettingsOptions } from './settings/load-settings.js';
export { resolveListenAddress, DEFAULT_HOST, DEFAULT_PORT } from './settings/listen-address.js';
export type { ListenAddress, ListenOptions } from './settings/listen-address.js';
export { WharfError } from './errors/wharf-error.js';
