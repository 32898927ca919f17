import type { Command } from 'commander';
import { flagName, settingEntries, settings, shownDefault, type Setting, type Variable } from '../config/settings.ts';

/**
 * `folio serve`'s options are the settings table's flags (src/config/settings.ts), so no setting can
 * lack its flag or a flag its setting; the settings read only from the environment are named after
 * the options, with the reason.
 */
export function declareSettingFlags(command: Command): Command {
  for (const [variable, setting] of settingEntries) {
    if ('flag' in setting) command.option(setting.flag, describe(variable, setting));
  }
  const envOnly = settingEntries.filter(([, setting]) => flagName(setting) === undefined);
  const reasons = [...new Set(envOnly.map(([, setting]) => ('envOnly' in setting ? setting.envOnly : '')))];
  const width = Math.max(...envOnly.map(([variable]) => variable.length));
  const lines = envOnly.map(([variable, setting]) => `  ${variable.padEnd(width)}  ${setting.description}`);
  command.addHelpText('after', `\nOnly in the environment (${reasons.join('; ')}):\n${lines.join('\n')}`);
  return command;
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
