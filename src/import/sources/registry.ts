import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { notFound } from '../../core/errors.ts';
import { legacyHostedSource } from '../hosted/source.ts';
import { legacyRestSource } from '../rest/source.ts';
import { wxrSource } from '../wxr/source.ts';
import type { ImportSource } from './types.ts';

/**
 * The import sources a deployment has: the built-in ones, then those its configuration lists
 * (IMPORT_SOURCES, import.md "a source is registered through the deployment's import configuration").
 * Each listed module exports a source as `default` or `source`; it is loaded once per process.
 */
const builtIn: readonly ImportSource[] = [wxrSource, legacyHostedSource, legacyRestSource];

const loaded = new Map<string, Promise<ImportSource[]>>();

export function importSources(config: Config): Promise<ImportSource[]> {
  const key = config.import.sources.join(',');
  let sources = loaded.get(key);
  if (!sources) {
    sources = loadSources(config.import.sources);
    loaded.set(key, sources);
    // A module that failed to load is tried again next time rather than remembered broken.
    sources.catch(() => loaded.delete(key));
  }
  return sources;
}

async function loadSources(specifiers: readonly string[]): Promise<ImportSource[]> {
  const sources = [...builtIn];
  for (const specifier of specifiers) {
    const target = specifier.startsWith('.') || path.isAbsolute(specifier) ? pathToFileURL(path.resolve(specifier)).href : specifier;
    const module = (await import(target)) as { default?: ImportSource; source?: ImportSource };
    const source = module.source ?? module.default;
    if (!source || typeof source.id !== 'string' || typeof source.analyze !== 'function' || typeof source.fetchContent !== 'function') {
      throw new Error(`Import source module ${specifier} exports no source (id, name, analyze, fetchContent)`);
    }
    if (sources.some((known) => known.id === source.id)) throw new Error(`Import source id ${source.id} (from ${specifier}) is already registered`);
    sources.push(source);
  }
  return sources;
}

export async function requireSource(config: Config, id: string): Promise<ImportSource> {
  const source = (await importSources(config)).find((candidate) => candidate.id === id);
  if (!source) throw notFound(`Import source ${id}`);
  return source;
}
