/** The only module the compiler and the runtime share. */
export * from './methods.js';
export * from './model.js';
export * from './manifest.js';
export * from './route-module.js';
