import type { Command } from 'commander';
import type { ConfigFlags } from '../config.ts';
import { settingEntries, settings, shownDefault, type Setting, type Variable } from '../config/settings.ts';

/**
 * `folio serve`'s options are the settings table's flags (src/config/settings.ts), so no setting can
 * lack its flag or a flag its setting; the settings read only from the environment are named after
 * the options, with the reason.
 */
export function declareSettingFlags(command: Command): Command {
  for (const [variable, setting] of settingEntries) {
    if ('flag' in setting) command.option(setting.flag, describe(variable, setting));
  }
  const envOnly = settingEntries.flatMap(([variable, setting]) => ('envOnly' in setting ? [{ variable, description: setting.description, reason: setting.envOnly }] : []));
  const reasons = [...new Set(envOnly.map((item) => item.reason))];
  const width = Math.max(...envOnly.map((item) => item.variable.length));
  const lines = envOnly.map((item) => `  ${item.variable.padEnd(width)}  ${item.description}`);
  command.addHelpText('after', `\nOnly in the environment (${reasons.join('; ')}):\n${lines.join('\n')}`);
  return command;
}

/** The config flags of a command that took `declareDatabaseFlag`'s option. */
export function databaseFlags(options: { databaseUrl?: string }): ConfigFlags {
  return options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl };
}

/** The one setting every command takes, so the CLI can point at the server's database. */
export function declareDatabaseFlag(command: Command): Command {
  const { DATABASE_URL } = settings;
  return command.option(DATABASE_URL.flag, describe('DATABASE_URL', DATABASE_URL));
}

/** `port to listen on, 0 for any free one (PORT, default 3000)` */
function describe(variable: Variable, setting: Setting): string {
  const shown = shownDefault(setting);
  return `${setting.description} (${variable}${shown === 'none' ? '' : `, default ${shown}`})`;
}
