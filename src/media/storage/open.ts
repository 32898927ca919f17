import type { StorageConfig } from '../../config.ts';
import { localStorage } from './local.ts';
import type { MediaStorage } from './types.ts';

/** The configured storage. The S3 client is loaded only when configured: it is large and slow to load. */
export async function openStorage(config: StorageConfig): Promise<MediaStorage> {
  if (config.kind === 'local') return localStorage(config.dir);
  const { s3Storage } = await import('./s3.ts');
  return s3Storage(config);
}
