// The record of the files an esbuild bundle was made from, shared by the bundles of scripts/
// (the console's validator in runtime-dist.mjs, the command line in cli-dist.mjs): each input as
// [path relative to the package, SHA-256, `size:mtimeMs`]. An input whose stat is the recorded one
// is not read again; one whose stat changed but whose bytes did not (a checkout, a touch) keeps the
// bundle, and only the stamp is written again with the new stats.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

export function fileStat(file) {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeMs}` : null;
}

export function fileDigest(file) {
  try {
    return sha256(readFileSync(file));
  } catch {
    return null;
  }
}

/** The stamp entries of `rels` under `root` (the stat taken before the read: an edit meanwhile leaves a newer stat, read again next time). */
export function stampInputs(root, rels) {
  return rels.map((rel) => {
    const file = path.join(root, rel);
    const stat = fileStat(file);
    return [rel, fileDigest(file), stat];
  });
}

/**
 * Whether the recorded inputs still hold: 'changed' when any input's bytes differ, else the
 * entries with today's stats (equal to the recorded ones when nothing was touched: `restat` false).
 */
export function checkInputs(root, inputs) {
  if (!Array.isArray(inputs)) return { changed: true };
  let restat = false;
  const current = [];
  for (const [rel, hash, stat] of inputs) {
    const file = path.join(root, rel);
    const now = fileStat(file);
    if (now !== stat) {
      if (fileDigest(file) !== hash) return { changed: true };
      restat = true;
    }
    current.push([rel, hash, now]);
  }
  return { changed: false, restat, inputs: current };
}
