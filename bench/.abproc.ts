// ad-hoc: two trees' apps in one process, alternated
import fs from 'node:fs';
import pino from 'pino';
import { Readable } from 'node:stream';
await import('@hono/node-server');
const seeded = JSON.parse(fs.readFileSync('/tmp/pi/seed.json', 'utf8'));
const url = 'file:/tmp/pi/folio.db';
const which = process.env.WHICH ?? 'entry';
async function appOf(tree: string) {
  const { createApp } = await import(`${tree}/src/app.ts`);
  const { loadConfig } = await import(`${tree}/src/config.ts`);
  const { openDatabase } = await import(`${tree}/src/db/connection.ts`);
  const { openStorage } = await import(`${tree}/src/media/storage/open.ts`);
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'warn', MEDIA_DIR: '/tmp/pi/media' });
  const db = await openDatabase(config.database);
  const storage = await openStorage(config.media.storage);
  return createApp({ config, db, log: pino({ level: 'warn' }), storage });
}
const apps = { A: await appOf(process.env.A ?? '/tmp/oldtree'), B: await appOf(process.env.B ?? '/work/main') };
const headers = { authorization: `Bearer ${seeded.token}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1' };
const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'content_get', arguments: { collection: 'bench', id: seeded.id } } });
const path = which === 'settings' ? '/_cms/api/settings' : which === 'mcp' ? '/_cms/api/mcp' : `/_cms/api/content/bench/${seeded.id}`;
const call = (app: any) => {
  if (which === 'mcp') {
    const incoming: any = Readable.from([Buffer.from(mcpBody)]);
    Object.assign(incoming, { headers: { ...headers, 'content-length': String(mcpBody.length) }, socket: { remoteAddress: '127.0.0.1' }, method: 'POST' });
    return app.fetch(new Request(`http://127.0.0.1${path}`, { method: 'POST', headers, body: mcpBody }), { incoming });
  }
  return app.fetch(new Request(`http://127.0.0.1${path}`, { headers }), { incoming: { headers, socket: { remoteAddress: '127.0.0.1' }, method: 'GET', errored: null } });
};
for (const app of Object.values(apps)) { const r = await call(app); const t = await r.text(); if (r.status !== 200) throw new Error(t); }
const n = Number(process.env.N ?? 3000);
const loop = async (app: any, count: number) => { for (let i = 0; i < count; i++) await (await call(app)).text(); };
for (const app of Object.values(apps)) await loop(app, 5000);
const ratios: number[] = [];
const cpu: Record<string, number[]> = { A: [], B: [] };
for (let round = 0; round < Number(process.env.ROUNDS ?? 40); round++) {
  const order = round % 2 ? ['A', 'B'] : ['B', 'A'];
  const got: Record<string, number> = {};
  for (const k of order) {
    const t = process.cpuUsage();
    await loop((apps as any)[k], n);
    const u = process.cpuUsage(t);
    got[k] = (u.user + u.system) / n;
    cpu[k]!.push(got[k]!);
  }
  ratios.push(got.B! / got.A!);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${which}: A ${med(cpu.A!).toFixed(1)} µs, B ${med(cpu.B!).toFixed(1)} µs, B/A median of ${ratios.length} paired rounds ${((med(ratios) - 1) * 100).toFixed(1)}%`);
process.exit(0);
