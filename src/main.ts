import { runCli } from './cli/main.ts';

const code = await runCli(process.argv.slice(2));
// `serve` keeps the event loop alive on its own; every other command is done here.
if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
