import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { ConfigError } from '../config.ts';
import { AppError } from '../core/errors.ts';
import { DatabaseUnavailableError } from '../db/connection.ts';
import { registerArchiveCommands } from './archive.ts';
import { registerBackupCommand } from './backup.ts';
import { registerDataCommands } from './commands.ts';
import { registerImportCommand } from './import.ts';
import { registerMoveCommand } from './move.ts';
import { CliProblem } from './problems.ts';
import { registerServeCommand } from './serve.ts';

/** `folio <command>`: every command's flags are described by `folio <command> --help`. */
export async function runCli(argv: string[]): Promise<number> {
  const program = new Command('folio')
    .description('Folio content management server')
    .version(packageJson.version)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  registerServeCommand(program);
  registerDataCommands(program);
  registerImportCommand(program);
  registerBackupCommand(program);
  registerArchiveCommands(program);
  registerMoveCommand(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return reportCliError(error);
  }
}

function reportCliError(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ConfigError || error instanceof DatabaseUnavailableError || error instanceof CliProblem) {
    console.error(`folio: ${error.message}`);
    return 2;
  }
  if (error instanceof AppError) {
    const issues = (error.details.issues as { path: string; message: string }[] | undefined) ?? [];
    console.error(`folio: ${error.code}: ${error.message}`);
    for (const issue of issues) if (!error.message.includes(issue.message)) console.error(`  ${issue.path}: ${issue.message}`);
    return 1;
  }
  console.error(`folio: ${(error as Error).stack ?? String(error)}`);
  return 1;
}
