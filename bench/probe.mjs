// Loaded into a server process by the bench (`node --import <this file>`, docs/decisions/0051): it
// counts the CPU time and the database statements of the whole process between two calls on a port
// of its own, BENCH_PROBE_PORT, so the bench can divide them by the requests it sent in between.
// Plain JavaScript that imports nothing of Folio: it loads into any commit's server (the A/B mode).
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setImmediate } from 'node:timers';

const port = Number(process.env.BENCH_PROBE_PORT);
if (port > 0) {
  let statements = 0;
  // The server's own copies of the drivers: resolved from its tree, as its imports are.
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const count = (prototype, names) => {
    for (const name of names) {
      const original = prototype[name];
      prototype[name] = function (...args) {
        statements += 1;
        return original.apply(this, args);
      };
    }
  };
  const Sqlite = require('better-sqlite3');
  const scratch = new Sqlite(':memory:');
  count(Object.getPrototypeOf(scratch.prepare('select 1')), ['run', 'get', 'all', 'iterate']);
  scratch.close();
  count(require('pg').Client.prototype, ['query']);

  let started = process.cpuUsage();
  const server = http.createServer((request, response) => {
    if (request.url === '/start') {
      statements = 0;
      started = process.cpuUsage();
      response.end('{}');
    } else {
      const used = process.cpuUsage(started);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ cpuMicros: used.user + used.system, statements }));
    }
  });
  // Not before the process is settled: bin/folio.mjs may replace it (execve) as it starts, and only
  // the process that stays should hold the port.
  setImmediate(() => server.listen(port, '127.0.0.1').unref());
}
