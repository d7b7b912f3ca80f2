/**
 * The area contract: mount hands an area the slice it names (computed from the settings and the
 * folders), the endpoints and exactly the infra it is given, and returns what register returns.
 */
import fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { RouteTable } from '../routing/route-table.js';
import { RouteTableHolder } from '../routing/route-table-holder.js';
import type { Settings } from '../settings/load-settings.js';
import { areaMounter, type Area, type AreaContext, type GatewayFolders } from './area.js';

describe('areaMounter', () => {
  it('hands the area its slice, the endpoints and its infra, and returns its result', async () => {
    const app = fastify();
    const settings = { server: { metrics: { enabled: true, listenAddress: '' } }, environments: new Map() } as unknown as Settings;
    const folders: GatewayFolders = { generatedDir: '/p/generated', environmentsDir: '/p/environments', dataDir: '/p/data' };
    const holder = new RouteTableHolder(RouteTable.build({ sourceHash: 'h', endpoints: [], openapi: null }));
    const seen: AreaContext<{ enabled: boolean; dataDir: string }, { readonly token: string }>[] = [];
    const area: Area<{ enabled: boolean; dataDir: string }, { readonly token: string }, string> = {
      name: 'probe',
      slice: (all, dirs) => ({ enabled: all.server.metrics.enabled, dataDir: dirs.dataDir }),
      register(instance, context) {
        expect(instance).toBe(app);
        seen.push(context);
        return `registered ${context.infra.token}`;
      },
    };
    const mount = areaMounter(app, settings, folders, holder);
    expect(await mount(area, { token: 't1' })).toBe('registered t1');
    expect(seen).toEqual([{ settings: { enabled: true, dataDir: '/p/data' }, endpoints: holder, infra: { token: 't1' } }]);
    await app.close();
  });
});
