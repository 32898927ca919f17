import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../core/context.ts';
import { access, defineOperation } from '../core/operation.ts';
import { roles } from '../core/roles.ts';
import { migrations } from '../db/migrate.ts';
import type { BytesBody } from '../http/body.ts';
import { writeSiteArchive } from './export.ts';
import { restoreSiteArchive, type RestoreResult } from './restore.ts';

export const adminOnly = access.scope('admin', { minRole: roles.admin });

/** `GET /site/export`: the archive, made while it is sent (the records of one snapshot, then the media). */
export const exportSite = defineOperation({
  name: 'site.export',
  access: adminOnly,
  async run(ctx): Promise<{ filename: string; body: Readable }> {
    const now = ctx.clock.now();
    const body = new PassThrough();
    const sqlitePath = ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : undefined;
    // An export that fails once the answer has begun can only end it short: the summary the archive
    // then lacks is what a restore refuses it by.
    writeSiteArchive({ db: ctx.db, sqlitePath, storage: ctx.storage }, body, { now }).catch((error: unknown) => {
      ctx.log.error({ err: error }, 'site export failed while it was sent');
      body.destroy(error as Error);
    });
    return { filename: archiveFilename(now), body };
  },
});

/** `folio-site-20261130T021758.123Z.tar.gz`: when it was made, in a name every file system takes. */
export function archiveFilename(now: Date): string {
  return `folio-site-${now.toISOString().replaceAll(':', '').replaceAll('-', '')}.tar.gz`;
}

/**
 * `POST /site/import`: the uploaded archive is kept in a temporary file (it is read twice: checked
 * whole, then restored) and restored as `folio import-site` restores one.
 */
export const importSite = defineOperation({
  name: 'site.import',
  access: adminOnly,
  async run(ctx: Context, input: { body: BytesBody; merge: boolean; passphrase?: string }): Promise<RestoreResult> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'folio-import-site-'));
    const file = path.join(dir, `${randomBytes(8).toString('hex')}.tar.gz`);
    try {
      await pipeline(input.body.stream, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      return await restoreSiteArchive(ctx, file, { merge: input.merge, passphrase: input.passphrase, knownMigrations: Object.keys(migrations(ctx.db.dialect)) });
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  },
});
