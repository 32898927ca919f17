import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { configVariables } from '../../src/config.ts';

/** The repository root: the CLI runs from here, as `npx folio` would. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const cliPath = fileURLToPath(new URL('../../bin/folio.mjs', import.meta.url));

/** The test process's environment without any Folio variable, so the caller's shell cannot leak in. */
export function cleanEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const variable of Object.keys(configVariables)) delete env[variable];
  return { ...env, ...overrides };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/folio.mjs ...args` to completion; killed (and reported) if it outlives the deadline. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 45_000): Promise<CliResult> {
  return runProcess(process.execPath, [cliPath, ...args], env, { timeoutMs });
}

/** Runs a command (from the repository root unless told) to completion with `cleanEnv(env)`; killed (and reported) at the deadline. */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  { cwd = repoRoot, timeoutMs = 20_000 }: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** One JSON log line of the server (pino). */
export type LogLine = Record<string, unknown> & { msg?: string; level?: number };

export interface ServerProcess {
  child: ChildProcess;
  /** Parsed JSON lines of stdout so far. */
  readonly logs: LogLine[];
  readonly stdout: string;
  readonly stderr: string;
  /** Settles when the process has exited (never rejects). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first log line (already seen or still to come) matching; rejects at the deadline or at exit. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Kills the process if it still runs and waits for it to be gone. */
  kill(): Promise<void>;
}

/** Spawns `node bin/folio.mjs serve` and follows its JSON logs on stdout. */
export function spawnServer(env: Record<string, string>, args: string[] = []): ServerProcess {
  const child = spawn(process.execPath, [cliPath, 'serve', ...args], { cwd: repoRoot, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: LogLine[] = [];
  let stdout = '';
  let stderr = '';
  let pending = '';
  let exitedNow = false;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ raw: line });
      }
    }
    notify();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => {
      exitedNow = true;
      notify();
      resolve({ code, signal });
    });
    child.once('error', () => {
      exitedNow = true;
      notify();
      resolve({ code: null, signal: null });
    });
  });

  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs = 20_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const check = () => {
        const found = logs.find(match);
        if (found) {
          done();
          resolve(found);
        } else if (exitedNow) {
          done();
          reject(new Error(`folio serve exited before the expected log line\nstdout: ${stdout}\nstderr: ${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching log line within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  return {
    child,
    logs,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    waitForLog,
    async kill() {
      if (!exitedNow && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
