import { runCli } from './cli/main.ts';

const code = await runCli(process.argv.slice(2));
// `serve` keeps the event loop alive on its own; every other command is done here. A command that ended
// well may have set its own status (an import that failed, or was interrupted): that one stands.
if (code !== 0) process.exitCode = code;
