/**
 * Progress of seeding the embedded demo database (pglite.ts emits, the banner prints). A module of
 * its own so that the banner does not load PGlite in a gateway that has no embedded database.
 */
import { EventEmitter } from 'node:events';

export const demoSeedProgress = new EventEmitter<{ start: []; step: [line: string]; done: [ms: number] }>();
