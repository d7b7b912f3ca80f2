/**
 * Reads `blockedIpRanges` of environments/network-access-policy.json for the build's url-blocked
 * warning. Absent file or key: the runtime's default ranges. A file the runtime would refuse is
 * not a build error here (the runtime names it at startup); then the defaults are used.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_BLOCKED_RANGES } from '../runtime/contract/network-ranges.js';

export async function readBlockedIpRanges(root: string): Promise<readonly string[]> {
  let text: string;
  try {
    text = await readFile(path.join(root, 'environments', 'network-access-policy.json'), 'utf8');
  } catch {
    return DEFAULT_BLOCKED_RANGES;
  }
  try {
    const ranges = (JSON.parse(text) as { blockedIpRanges?: unknown }).blockedIpRanges;
    if (Array.isArray(ranges) && ranges.every((r) => typeof r === 'string')) return ranges as string[];
  } catch {
    // fall through to the defaults
  }
  return DEFAULT_BLOCKED_RANGES;
}
