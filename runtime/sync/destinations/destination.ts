/** What every destination implements. deliver() resolves only once the batch is durably accepted. */
import type { Batch } from './batch.js';

export interface SyncDestination {
  readonly key: string;
  readonly type: 'File' | 'Http' | 'RabbitMQ' | 'Database';
  deliver(batch: Batch): Promise<void>;
  close(): Promise<void>;
}

/** Fills {environment}, {object}, ... in a template; unknown names stay as written. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (all, name: string) => values[name] ?? all);
}
