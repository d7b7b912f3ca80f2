/** A small docs tree in a temp folder, built with the compiler and loaded by the runtime. */
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildDocsSite } from '../../compiler/docs-site/index.js';
import { loadDocsSite, type LoadedDocsSite } from '../../runtime/docs-site/site.js';

export const FIXTURE_FILES: Readonly<Record<string, string>> = {
  'config.json': JSON.stringify({
    title: 'Fixture Docs',
    description: 'Docs used by the tests.',
    favicon: '🚀',
    lastUpdated: true,
    footer: 'Made with **care**.',
    pageControls: { downloadMarkdown: true, subscribeRss: true },
    head: [{ tag: 'meta', attrs: { name: 'x-test', content: 'a"b' } }],
    socialLinks: [{ icon: 'github', url: 'https://github.com/example/wharf' }],
    nav: [
      { title: 'Home', path: 'index' },
      { title: 'Guide', items: [{ title: 'Install', path: 'guide/install' }, { title: 'Configure', path: 'guide/configure' }] },
      { title: 'Zebra', path: 'zebra' },
      { title: 'Later', path: 'not-written-yet' },
    ],
  }),
  'index.md': '---\ntitle: Welcome\ndescription: Start here.\ndate: 2026-01-01\n---\n# Welcome\n\nThis is the start page. <script>alert("x")</script>\n\n## Next steps\n\nRead [install](./guide/install.md).\n',
  'guide/install.md': '---\ntitle: Install\ndate: 2026-02-01\n---\n# Install\n\nRun the installer.\n\n```ts\nconst port = 5080;\n```\n',
  'guide/configure.md': '---\ntitle: Configure\ndescription: Settings and options.\nkeywords: [tuning]\nupdated: 2026-03-01\n---\n# Configure\n\n## Options\n\nSet options in the file.\n',
  'zebra.md': '---\ntitle: Zebra\nupdated: 2026-04-01\n---\n# Zebra\n\nStripes everywhere. The word gateway appears in the body only.\n',
  'Mixed/Case.md': '---\ntitle: Mixed Case\ndate: 2025-12-01\n---\n# Mixed Case\n\nThis page title says gateway too: no, only the body.\n',
};

export interface Fixture {
  readonly root: string;
  readonly docs: string;
  write(file: string, text: string): void;
  load(): Promise<LoadedDocsSite>;
  cleanup(): void;
}

export function createFixture(files: Readonly<Record<string, string>> = FIXTURE_FILES): Fixture {
  const root = mkdtempSync(join(tmpdir(), 'wharf-docs-'));
  const docs = join(root, 'docs');
  const write = (file: string, text: string): void => {
    mkdirSync(dirname(join(docs, file)), { recursive: true });
    writeFileSync(join(docs, file), text);
  };
  for (const [file, text] of Object.entries(files)) write(file, text);
  return {
    root,
    docs,
    write,
    async load() {
      const result = await buildDocsSite({ root });
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length) throw new Error(JSON.stringify(errors));
      return loadDocsSite(result.files);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
