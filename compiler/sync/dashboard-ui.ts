/**
 * The sync dashboard's precompiled assets: runtime/sync/ui (Preact, reusing the console's styles
 * and small components) bundled like the console into generated/sync-ui/, which `wharf sync`
 * serves at /ui when WebHost:Enabled (runtime/sync/web/dashboard-routes.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MadeArtifact } from '../artifact-cache.js';
import { makeUiBundle } from '../console-ui/build.js';

export const SYNC_UI_DIR = 'sync-ui';

export function makeSyncDashboardUi(): Promise<MadeArtifact> {
  return makeUiBundle({
    sourceDir: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../runtime/sync/ui'),
    dir: SYNC_UI_DIR,
    title: 'Wharf sync',
    noscript: 'The sync dashboard needs JavaScript. The same data is available as JSON at /ui/api/overview and /health.',
  });
}
