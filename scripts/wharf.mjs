#!/usr/bin/env node
// The `wharf` command. Registers tsx so the TypeScript sources run as they are, then hands over
// to the CLI. (The generated route modules are not loaded through tsx: esbuild bundles them.)
import { register } from 'tsx/esm/api';

register();
await import('../compiler/cli/main.ts');
