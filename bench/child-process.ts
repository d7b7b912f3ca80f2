/** A server child process of a bench, stopped as users stop it: SIGTERM (a profiled run writes its profile on exit), SIGKILL after 15 s. */
import type { ChildProcess } from 'node:child_process';

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
