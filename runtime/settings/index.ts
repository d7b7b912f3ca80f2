export * from './config-source.js';
export * from './server-settings.js';
export * from './environments.js';
export * from './redact.js';
export * from './listen-address.js';
export * from './load-settings.js';
