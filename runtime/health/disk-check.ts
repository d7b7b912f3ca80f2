/**
 * Diskspace: percent free on the file systems the gateway writes to (thresholds from
 * health-settings); the worst one counts. `folders()` names them (health-routes.ts: the SQLite
 * token store's folder, the Files storage roots, environments/); a folder not created yet (e.g.
 * data/ with the token store on PostgreSQL) is measured at its nearest existing parent, so a
 * missing folder is never a failure.
 */
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { HealthCheck } from './health-check.js';

type Space = {
  readonly percentFree: number;
  readonly freeMegabytes: number;
};

async function spaceAt(folder: string): Promise<Space> {
  let current = path.resolve(folder);
  for (;;) {
    try {
      const stats = await statfs(current);
      const percentFree = stats.blocks === 0 ? 100 : Math.round((stats.bavail / stats.blocks) * 1000) / 10;
      return { percentFree, freeMegabytes: Math.floor((stats.bavail * stats.bsize) / 1_048_576) };
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw error;
      current = parent;
    }
  }
}

export function diskCheck(folders: () => readonly string[], warningPercent: number, criticalPercent: number): HealthCheck {
  return {
    name: 'Diskspace',
    tags: ['storage', 'system'],
    async run() {
      const spaces = await Promise.all([...new Set(folders())].map(spaceAt));
      const data = spaces.reduce((worst, space) => (space.percentFree < worst.percentFree ? space : worst));
      const { percentFree } = data;
      if (percentFree < criticalPercent) return { status: 'Unhealthy', description: `Disk space is critically low (${percentFree}% free)`, data };
      if (percentFree < warningPercent) return { status: 'Degraded', description: `Disk space is low (${percentFree}% free)`, data };
      return { status: 'Healthy', description: `Disk space is sufficient (${percentFree}% free)`, data };
    },
  };
}
