import { describe, expect, it } from 'vitest';
import { diagramsPlugin } from './diagrams.js';
import { renderWith } from './plugin-harness.js';

describe('diagrams plugin', () => {
  it('turns a mermaid fence into escaped <pre class="mermaid"> and flags the page', () => {
    const { html, env } = renderWith(diagramsPlugin, '```mermaid\ngraph TD\n  A-->B<script>\n```');
    expect(html).toBe('<pre class="mermaid">graph TD\n  A--&gt;B&lt;script&gt;\n</pre>\n');
    expect(env.usesMermaid).toBe(true);
  });

  it('leaves other fences to the previous renderer', () => {
    const { html, env } = renderWith(diagramsPlugin, '```ts\nconst a = 1;\n```');
    expect(html).toBe('<pre><code class="language-ts">const a = 1;\n</code></pre>\n');
    expect(env.usesMermaid).toBe(false);
  });
});
