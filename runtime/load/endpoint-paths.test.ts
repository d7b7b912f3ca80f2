/**
 * A generated/ that bypassed the build (edited by hand, or stale) naming paths the build refuses:
 * the gateway does not start on it, a reload onto it keeps the last good table, and /etc/passwd is
 * never served. Hand-made generated/ folders (runtime/testing/generated-fixture.ts) in temp projects.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayOf } from '../gateway-handle.js';
import { buildServer } from '../server.js';
import { createTempProject, type EndpointSpec, type TempProject, writeGenerated } from '../testing/generated-fixture.js';
import { createTestServer, type TestServer } from '../testing/test-server.js';

const SETTINGS = { Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] }, RateLimiting: { Enabled: false } };
const ENVIRONMENTS = { demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' }, prod: { Provider: 'postgres', ConnectionString: 'Host=db;Password=hunter2-prod' } };
const FOLDER = 'endpoints/static/Ref/Secret';
const staticAt = (contentFile: string, sourceFile = `${FOLDER}/entity.json`): EndpointSpec => ({
  kind: 'static',
  routePath: 'Ref/Secret',
  overrides: { sourceFile, contentFile, contentType: 'application/json' },
});
const filesWith = (overrides: Record<string, unknown>): EndpointSpec => ({ kind: 'files', routePath: 'files/Archive', overrides });

/** Sets up the project's files (links, content) before the gateway loads generated/. */
type Prepare = (root: string) => Promise<void>;
const linkContent = (target: string): Prepare => async (root) => {
  await mkdir(path.join(root, FOLDER), { recursive: true });
  await symlink(target, path.join(root, FOLDER, 'passwd.json'));
};

const REFUSED: [string, EndpointSpec, Prepare | null, string][] = [
  [
    'ContentFile a symbolic link to /etc/passwd',
    staticAt(`${FOLDER}/passwd.json`),
    linkContent('/etc/passwd'),
    `ContentFile '${FOLDER}/passwd.json' leads outside its endpoint folder '${FOLDER}/' (a symbolic link)`,
  ],
  [
    'ContentFile a relative link to an environment\'s settings',
    staticAt(`${FOLDER}/passwd.json`),
    linkContent('../../../../environments/prod/settings.json'),
    `ContentFile '${FOLDER}/passwd.json' leads outside its endpoint folder '${FOLDER}/' (a symbolic link)`,
  ],
  [
    'the endpoint folder a symbolic link out of endpoints/',
    staticAt('endpoints/static/Ref/Etc/passwd', 'endpoints/static/Ref/Etc/entity.json'),
    async (root) => {
      await mkdir(path.join(root, 'endpoints/static/Ref'), { recursive: true });
      await symlink('/etc', path.join(root, 'endpoints/static/Ref/Etc'));
    },
    "ContentFile 'endpoints/static/Ref/Etc/passwd' leads outside its endpoint folder 'endpoints/static/Ref/Etc/' (a symbolic link)",
  ],
  [
    'ContentFile a folder',
    staticAt(`${FOLDER}/data`),
    async (root) => {
      await mkdir(path.join(root, FOLDER, 'data'), { recursive: true });
    },
    `ContentFile '${FOLDER}/data' is not a file`,
  ],
  ['ContentFile absolute', staticAt('/etc/passwd'), null, `ContentFile '/etc/passwd' is not inside its endpoint folder '${FOLDER}/'`],
  ['ContentFile leaving with ..', staticAt(`${FOLDER}/../../../../../etc/passwd`), null, `ContentFile '${FOLDER}/../../../../../etc/passwd' is not inside its endpoint folder '${FOLDER}/'`],
  ['ContentFile elsewhere in the project', staticAt('environments/prod/settings.json'), null, `ContentFile 'environments/prod/settings.json' is not inside its endpoint folder '${FOLDER}/'`],
  ['an endpoint folder outside endpoints/', staticAt('environments/prod/settings.json', 'environments/prod/entity.json'), null, "its entity.json 'environments/prod/entity.json' is not inside endpoints/"],
  ['ContentFile with a NUL', staticAt(`${FOLDER}/a\0.json`), null, `ContentFile '${FOLDER}/a\\u0000.json' is not inside its endpoint folder '${FOLDER}/'`],
  ['Files BaseDirectory with a NUL', filesWith({ baseDirectory: 'inv\0oices' }), null, 'BaseDirectory contains a NUL character'],
  ['Files StorageDirectory with a NUL', filesWith({ storageDirectory: '/srv/files\0' }), null, 'StorageDirectory contains a NUL character'],
  ['Files BaseDirectory leaving the storage root', filesWith({ baseDirectory: '{env}/../../../etc' }), null, "BaseDirectory '{env}/../../../etc' leaves the storage root"],
  ['Files BaseDirectory absolute', filesWith({ baseDirectory: '/etc' }), null, "BaseDirectory '/etc' leaves the storage root"],
];

describe('a generated/ naming paths the build refuses', () => {
  let project: TempProject | undefined;
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    await project?.cleanup();
    server = undefined;
    project = undefined;
  });

  it.each(REFUSED)('%s: the gateway does not start', async (_name, endpoint, prepare, reason) => {
    project = await createTempProject({ generated: { endpoints: [endpoint] }, serverSettings: SETTINGS, environments: ENVIRONMENTS });
    await prepare?.(project.root);
    const id = endpoint.kind === 'static' ? 'static:Ref/Secret' : 'files:files/Archive';
    await expect(
      buildServer({ generatedDir: project.generatedDir, environmentsDir: project.environmentsDir, dataDir: path.join(project.root, 'data'), logger: false, env: {} }),
    ).rejects.toThrow(`generated/ endpoint '${id}' is refused: ${reason}. Run wharf build.`);
  });

  it('a reload onto such a generated/ keeps the last good table; a link inside the endpoint folder is served', async () => {
    server = await createTestServer({ generated: { sourceHash: 'good', endpoints: [staticAt(`${FOLDER}/countries.json`)] }, serverSettings: SETTINGS, environments: ENVIRONMENTS });
    const root = server.project.root;
    await mkdir(path.join(root, FOLDER, 'data'), { recursive: true });
    await writeFile(path.join(root, FOLDER, 'data', 'v2.json'), '[{"code":"DE"}]');
    await symlink('data/v2.json', path.join(root, FOLDER, 'countries.json'));
    expect(await gatewayOf(server.app).reload()).toMatchObject({ ok: true });
    const served = await server.inject({ method: 'GET', url: '/api/demo/Ref/Secret' });
    expect([served.statusCode, served.body]).toEqual([200, '[{"code":"DE"}]']);

    await symlink('/etc/passwd', path.join(root, FOLDER, 'passwd.json'));
    await writeGenerated(server.project.generatedDir, { sourceHash: 'edited', endpoints: [staticAt(`${FOLDER}/passwd.json`)] });
    expect(await gatewayOf(server.app).reload()).toEqual({
      ok: false,
      error: `generated/ endpoint 'static:Ref/Secret' is refused: ContentFile '${FOLDER}/passwd.json' leads outside its endpoint folder '${FOLDER}/' (a symbolic link). Run wharf build.`,
      sourceHash: 'good',
      endpoints: 1,
    });
    const after = await server.inject({ method: 'GET', url: '/api/demo/Ref/Secret' });
    expect([after.statusCode, after.body]).toEqual([200, '[{"code":"DE"}]']);
  });
});
