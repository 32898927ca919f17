import fs from 'node:fs';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { declareSettingFlags } from '../src/cli/setting-flags.ts';
import { configVariables } from '../src/config.ts';
import { flagName, settingEntries, settings, shownDefault, type Variable } from '../src/config/settings.ts';
import { repoRoot, runCli, type CliResult } from './support/process.ts';

/** The README's configuration table, one object per row, backticks taken out of its cells. */
function readmeSettingRows(): { variable: string; flag: string; shownDefault: string }[] {
  const readme = fs.readFileSync(`${repoRoot}/README.md`, 'utf8');
  const section = readme.split(/^## Configuration$/m)[1]!.split(/^## /m)[0]!;
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  expect(rows[0]).toBe('| Variable | Flag | Default | Meaning |');
  return rows.slice(2).map((row) => {
    const [variable, flag, shown] = row.slice(1, -1).split('|').map((cell) => cell.replaceAll('`', '').trim());
    return { variable: variable!, flag: flag!, shownDefault: shown! };
  });
}

const flagged = settingEntries.filter(([, setting]) => flagName(setting) !== undefined);
const envOnly = settingEntries.filter(([, setting]) => flagName(setting) === undefined);

describe("the README's configuration table", () => {
  const rows = readmeSettingRows();

  it('lists every setting once, in the order of the settings table', () => {
    expect(rows.map((row) => row.variable)).toEqual(Object.keys(settings));
  });

  it("gives each variable the table's flag (none for an environment-only one) and default", () => {
    for (const row of rows) {
      const setting = settings[row.variable as Variable];
      expect({ variable: row.variable, flag: row.flag, shownDefault: row.shownDefault }).toEqual({
        variable: row.variable,
        flag: flagName(setting) ?? '',
        shownDefault: shownDefault(setting),
      });
    }
  });
});

describe('folio serve --help', () => {
  let help: CliResult;
  beforeAll(async () => {
    help = await runCli(['serve', '--help'], {});
  });

  it("declares exactly the table's flags, each with its variable", () => {
    expect(help.code).toBe(0);
    // Option lines start two spaces in; wrapped descriptions are indented further.
    const declared = [...help.stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z0-9-]+)/gm)].map((match) => match[1]);
    expect(declared.sort()).toEqual([...flagged.map(([, setting]) => flagName(setting)), '--help'].sort());
    for (const [variable] of flagged) expect(help.stdout).toContain(`(${variable}`);
  });

  it('names the settings read only from the environment, and why', () => {
    const after = help.stdout.split(/^Only in the environment/m)[1] ?? '';
    expect(after).toContain('process list');
    expect(envOnly.length).toBeGreaterThan(0);
    for (const [variable] of envOnly) expect(after).toMatch(new RegExp(`^ {2}${variable} `, 'm'));
  });
});

describe("flags reach loadConfig", () => {
  it("as the keys loadConfig reads: every declared flag's value lands where its variable's would", () => {
    const command = new Command('serve').exitOverride();
    declareSettingFlags(command);
    command.parse(flagged.flatMap(([, setting]) => [flagName(setting)!, 'x']), { from: 'user' });
    expect(Object.keys(command.opts()).sort()).toEqual(Object.values(configVariables).filter((key) => key !== undefined).sort());
  });

  it('refuses a bad value given by flag with the sentence its variable gets', async () => {
    const bad = { WEBHOOK_TIMEOUT_MS: '5', PLUGIN_HOOK_TIMEOUT_MS: 'soon', BODY_MEMORY_LIMIT: 'lots', MEDIA_STORAGE_QUOTA: '1', IMPORT_API_RETRIES: '99', WPCOM_API_URL: 'ftp://x', DATABASE_POOL_SIZE: '0' };
    const flags = Object.entries(bad).flatMap(([variable, value]) => [flagName(settings[variable as Variable])!, value]);
    const [byFlag, byVariable] = await Promise.all([runCli(['serve', ...flags], {}), runCli(['serve'], bad)]);
    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toBe(byVariable.stderr);
    const problems = byFlag.stderr.split('\n').filter((line) => line.startsWith('  - '));
    expect(problems.map((line) => line.split(' ')[3])).toEqual(Object.keys(bad).sort((a, b) => Object.keys(settings).indexOf(a) - Object.keys(settings).indexOf(b)));
    for (const line of problems) expect(line).toMatch(/^ {2}- [A-Z_]+ \(--[a-z-]+\) must .* \(got ".*"\)$/);
  });
});
