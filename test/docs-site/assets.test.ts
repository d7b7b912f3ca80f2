/** Images and PDFs in the docs folder: rewritten links, served at their path, exported. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { exportDocsSite } from '../../runtime/docs-site/export.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import type { LoadedDocsSite } from '../../runtime/docs-site/site.js';
import { createFixture, type Fixture } from './fixture.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let fixture: Fixture;
let site: LoadedDocsSite;
let app: FastifyInstance;

beforeAll(async () => {
  fixture = createFixture({ 'index.md': '# Home\n', 'guide/a.md': '# A\n\n![Logo](../img/Logo.png) [spec](./spec.pdf) [home](../index.md)\n' });
  mkdirSync(join(fixture.docs, 'img'));
  writeFileSync(join(fixture.docs, 'img', 'Logo.png'), PNG);
  writeFileSync(join(fixture.docs, 'img', 'x.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  writeFileSync(join(fixture.docs, 'guide', 'spec.pdf'), '%PDF-1.4');
  writeFileSync(join(fixture.docs, 'notes.txt'), 'not an asset');
  site = await fixture.load();
  app = await buildDocsServer({ site, settings: defaultDocsSettings({ basePath: '/d', themeDir: fixture.root }) });
});
afterAll(async () => {
  await app.close();
  fixture.cleanup();
});

describe('docs folder assets', () => {
  it('rewrites relative image and asset links to root-relative URLs under BasePath', async () => {
    const { body } = await app.inject({ url: '/d/guide/a' });
    expect(body).toContain('<p><img src="/d/img/Logo.png" alt="Logo"> <a href="/d/guide/spec.pdf">spec</a> <a href="/d/index">home</a></p>');
  });

  it.each([
    ['/d/img/Logo.png', 'image/png'],
    ['/d/IMG/logo.PNG', 'image/png'],
    ['/d/guide/spec.pdf', 'application/pdf'],
  ])('serves %s as %s with an ETag', async (url, type) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    const again = await app.inject({ url, headers: { 'if-none-match': String(res.headers['etag']) } });
    expect(again.statusCode).toBe(304);
  });

  it('returns the bytes unchanged, locks SVG scripts out, and does not serve other files', async () => {
    expect((await app.inject({ url: '/d/img/Logo.png' })).rawPayload.equals(PNG)).toBe(true);
    const svg = await app.inject({ url: '/d/img/x.svg' });
    expect(svg.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect([svg.headers['content-type'], svg.headers['x-content-type-options']]).toEqual(['image/svg+xml', 'nosniff']);
    expect((await app.inject({ url: '/d/notes.txt' })).statusCode).toBe(404);
  });

  it('exports assets at their paths', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wharf-export-assets-'));
    await exportDocsSite(site, defaultDocsSettings({ themeDir: fixture.root }), out);
    expect(readFileSync(join(out, 'img', 'Logo.png')).equals(PNG)).toBe(true);
    expect(existsSync(join(out, 'guide', 'spec.pdf'))).toBe(true);
    rmSync(out, { recursive: true, force: true });
  });
});
