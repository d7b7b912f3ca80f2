import { describe, expect, it } from 'vitest';
import MarkdownItCtor from 'markdown-it';
import { getHighlighter, highlightPlugin } from './highlight.js';

describe('highlight plugin', () => {
  it('highlights known languages with light colours and dark variables, the same every time', async () => {
    const md = new MarkdownItCtor();
    highlightPlugin(md, await getHighlighter());
    const html = md.render('```ts\nconst a = 1;\n```\n');
    expect(html).toBe(
      '<div class="code-block" data-lang="ts"><pre class="shiki shiki-themes github-light github-dark" style="background-color:#fff;--shiki-dark-bg:#24292e;color:#24292e;--shiki-dark:#e1e4e8" tabindex="0"><code><span class="line"><span style="color:#D73A49;--shiki-dark:#F97583">const</span><span style="color:#005CC5;--shiki-dark:#79B8FF"> a</span><span style="color:#D73A49;--shiki-dark:#F97583"> =</span><span style="color:#005CC5;--shiki-dark:#79B8FF"> 1</span><span style="color:#24292E;--shiki-dark:#E1E4E8">;</span></span></code></pre></div>',
    );
    expect(md.render('```ts\nconst a = 1;\n```\n')).toBe(html);
  });

  it('escapes code of unknown or missing languages', async () => {
    const md = new MarkdownItCtor();
    highlightPlugin(md, await getHighlighter());
    expect(md.render('```nope\n<b>&\n```\n')).toBe('<div class="code-block" data-lang="nope"><pre class="shiki plain"><code>&lt;b&gt;&amp;</code></pre></div>');
    expect(md.render('```\nx\n```\n')).toBe('<div class="code-block" data-lang="text"><pre class="shiki plain"><code>x</code></pre></div>');
  });
});
