/** Diskspace: percent free on the file system of the data folder; thresholds from health-settings. */
import { statfs } from 'node:fs/promises';
import type { HealthCheck } from './health-check.js';

export function diskCheck(folder: string, warningPercent: number, criticalPercent: number): HealthCheck {
  return {
    name: 'Diskspace',
    tags: ['storage', 'system'],
    async run() {
      const stats = await statfs(folder);
      const percentFree = stats.blocks === 0 ? 100 : Math.round((stats.bavail / stats.blocks) * 1000) / 10;
      const data = { percentFree, freeMegabytes: Math.floor((stats.bavail * stats.bsize) / 1_048_576) };
      if (percentFree < criticalPercent) return { status: 'Unhealthy', description: `Disk space is critically low (${percentFree}% free)`, data };
      if (percentFree < warningPercent) return { status: 'Degraded', description: `Disk space is low (${percentFree}% free)`, data };
      return { status: 'Healthy', description: `Disk space is sufficient (${percentFree}% free)`, data };
    },
  };
}
