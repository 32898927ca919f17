import fs from 'node:fs';
import path from 'node:path';

/**
 * CPU profiles of the bench's servers (issue 32: "profiles in the closing note"). With
 * BENCH_PROFILE=<folder>, Folio and the baseline server run under V8's sampling profiler
 * (`--cpu-prof`, one sample every 100 µs) and write `<name>.cpuprofile` there when they stop;
 * `npx tsx bench/profile.ts <file.cpuprofile>` then prints where the time went: self time by area
 * (Folio's folders, each package, Node's internals, the garbage collector) and the functions with
 * the most self and total time. Narrow the run with BENCH_ONLY so one scenario fills the profile.
 */
export function profileArgs(name: string): string[] {
  const folder = process.env.BENCH_PROFILE;
  if (!folder) return [];
  fs.mkdirSync(folder, { recursive: true });
  return ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', path.resolve(folder), '--cpu-prof-name', `${name}.cpuprofile`];
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The area a frame belongs to: a package, a folder of Folio's, Node's own code, or V8's pseudo-frames. */
function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [scope, name] = url.slice(modules + 14).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  const folio = url.match(/\/(?:dist|src)\/(.+)$/);
  if (folio) {
    const parts = folio[1]!.split('/');
    return 'folio ' + (parts.length > 1 ? parts[0] : parts[0]!.replace(/\.[jt]s$/, ''));
  }
  return url;
}

const label = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${frame.lineNumber + 1}`;

export interface ProfileSummary {
  totalMs: number;
  areas: Array<{ name: string; ms: number }>;
  selfTop: Array<{ name: string; ms: number }>;
  totalTop: Array<{ name: string; ms: number }>;
}

/** Self time by area and function, and total (inclusive) time by function, idle time left out. */
export function summarize(profile: Profile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const areas = new Map<string, number>();
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  let totalMicros = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') return;
    const micros = profile.timeDeltas[index] ?? 0;
    totalMicros += micros;
    add(areas, areaOf(node.callFrame), micros);
    add(self, label(node.callFrame), micros);
    // Each function once per sample, however often it recurses.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!.callFrame);
      if (!seen.has(name)) add(total, name, micros);
      seen.add(name);
    }
  });
  const sorted = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, micros]) => ({ name, ms: micros / 1000 }));
  return { totalMs: totalMicros / 1000, areas: sorted(areas, 40), selfTop: sorted(self, top), totalTop: sorted(total, top) };
}

function print(file: string): void {
  const summary = summarize(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile);
  const share = (ms: number) => `${((ms / summary.totalMs) * 100).toFixed(1).padStart(5)}%`;
  console.log(`${file}: ${summary.totalMs.toFixed(0)} ms busy\n\nSelf time by area:`);
  for (const area of summary.areas) console.log(`${share(area.ms)}  ${area.name}`);
  console.log('\nSelf time by function:');
  for (const row of summary.selfTop) console.log(`${share(row.ms)}  ${row.name}`);
  console.log('\nTotal time by function (callees included):');
  for (const row of summary.totalTop) console.log(`${share(row.ms)}  ${row.name}`);
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  const files = process.argv.slice(2);
  if (files.length === 0) throw new Error('usage: npx tsx bench/profile.ts <file.cpuprofile>…');
  for (const file of files) print(file);
}
