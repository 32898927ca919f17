import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import packageJson from '../../package.json' with { type: 'json' };
import { hashingTap } from '../backup/files.ts';
import { validationError, type AppError } from '../core/errors.ts';
import { archiveFormatVersion, Manifest, ManifestHead, manifestMember, secretsMember, Summary, summaryMember, type SummaryMember } from './format.ts';
import { decryptingStream, deriveKey, WrongPassphraseError } from './secrets.ts';

/**
 * Reading a site archive (docs/decisions/0061). `verifyArchive` reads it whole once before a restore
 * writes anything: a file that is not a gzip'd tar, has no manifest first, comes from a newer format
 * or schema, was cut short, or whose member bytes are not the summary's is refused with a sentence
 * naming the member and what is wrong.
 */

/** A refusal of the archive, as the CLI prints it and the API answers it (400 naming the member). */
export function archiveProblem(member: string, message: string): AppError {
  return validationError([{ path: member, message }], `The archive cannot be restored: ${member}: ${message}`);
}

/** Calls `onMember` with each member in order; its stream must be read (or drained) before the next. */
export async function readMembers(source: Readable, onMember: (name: string, body: Readable) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  let current = '(the start of the archive)';
  let members = 0;
  const feeding = pipeline(source, createGunzip(), extract as unknown as Writable);
  feeding.catch(() => undefined);
  try {
    for await (const entry of extract) {
      current = entry.header.name;
      members += 1;
      await onMember(current, entry as unknown as Readable);
    }
    await feeding;
  } catch (error) {
    throw explainReadFailure(error, current, members);
  }
}

function explainReadFailure(error: unknown, member: string, members: number): unknown {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('Z_')) {
    if (members === 0 && error.code === 'Z_DATA_ERROR') return archiveProblem('archive', 'this is not a gzip-compressed tar archive, so not a Folio site archive');
    if (error.code === 'Z_BUF_ERROR') return archiveProblem(member, 'the archive ends inside this member: it was cut short (truncated)');
    return archiveProblem(member, `the compressed bytes are damaged here (${error.message})`);
  }
  if (error instanceof Error && /unexpected end of data|Unexpected end/i.test(error.message)) {
    return archiveProblem(member, 'the archive ends inside this member: it was cut short (truncated)');
  }
  if (error instanceof Error && /invalid tar header|Invalid tar header/i.test(error.message)) {
    return members === 0 ? archiveProblem('archive', 'this is a gzip file but not a tar archive, so not a Folio site archive') : archiveProblem(member, 'the tar structure after this member is damaged');
  }
  return error;
}

async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A manifest this Folio can restore from, or the sentence why not. */
export function parseManifest(text: string, knownMigrations: readonly string[]): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw archiveProblem(manifestMember, 'it is not JSON, so this is not a Folio site archive');
  }
  const head = ManifestHead.safeParse(json);
  if (!head.success) throw archiveProblem(manifestMember, 'it is not a Folio site archive manifest');
  if (head.data.formatVersion > archiveFormatVersion) {
    const maker = typeof (json as { folioVersion?: unknown }).folioVersion === 'string' ? `Folio ${(json as { folioVersion: string }).folioVersion}` : 'a newer Folio';
    throw archiveProblem(
      manifestMember,
      `the archive is in format version ${head.data.formatVersion}, made by ${maker}; this Folio (${packageJson.version}) reads format version ${archiveFormatVersion} and older: restore it with a newer Folio`,
    );
  }
  const manifest = Manifest.safeParse(json);
  if (!manifest.success) throw archiveProblem(manifestMember, `it does not describe a version ${archiveFormatVersion} archive (${manifest.error.issues[0]?.path.join('.') ?? ''} is wrong)`);
  const level = manifest.data.source.migration;
  if (level !== '' && !knownMigrations.includes(level)) {
    throw archiveProblem(
      manifestMember,
      `the site's schema is at migration ${level}, which this Folio (${packageJson.version}, up to ${knownMigrations.at(-1)}) does not know: the archive comes from Folio ${manifest.data.folioVersion}; restore it with that version or a later one`,
    );
  }
  return manifest.data;
}

export interface VerifiedArchive {
  manifest: Manifest;
  summary: Summary;
  /** SHA-256 of the archive file: what an interrupted restore is recognised by. */
  sha256: string;
  /** The key that opens the secrets member, when there is one and a passphrase was given (its tag checked). */
  secretsKey?: Buffer;
}

/** Reads the whole archive once and checks every member against the summary; refuses with a sentence otherwise. */
export async function verifyArchive(file: string, options: { passphrase?: string; knownMigrations: readonly string[] }): Promise<VerifiedArchive> {
  const fileTap = hashingTap();
  const seen: SummaryMember[] = [];
  let manifest: Manifest | undefined;
  let summary: Summary | undefined;
  let secretsKey: Buffer | undefined;
  await readMembers(fs.createReadStream(file).pipe(fileTap), async (name, body) => {
      if (manifest === undefined) {
        if (name !== manifestMember) throw archiveProblem(name, `the first member is ${name}, not ${manifestMember}: this is not a Folio site archive`);
        const text = await readText(body);
        manifest = parseManifest(text, options.knownMigrations);
        seen.push({ name, ...digestOf(text) });
        if (manifest.encryption !== undefined && options.passphrase !== undefined) secretsKey = await deriveKey(options.passphrase, manifest.encryption);
        return;
      }
      if (summary !== undefined) throw archiveProblem(name, `a member after ${summaryMember}, which ends an archive`);
      if (name === summaryMember) {
        summary = parseSummary(await readText(body));
        return;
      }
      const tap = hashingTap();
      const check = name === secretsMember && secretsKey !== undefined ? [tap, decryptingStream(secretsKey, manifest.encryption!)] : [tap];
      await pipeline(body, ...(check as [typeof tap]), new Writable({ write: (_chunk, _encoding, done) => done() })).catch((error: unknown) => {
        if (error instanceof WrongPassphraseError) throw archiveProblem('passphrase', `${error.message}; nothing was restored`);
        throw error;
      });
      seen.push({ name, ...tap.digest() });
  });
  if (manifest === undefined) throw archiveProblem('archive', `it holds no ${manifestMember}: this is not a Folio site archive`);
  if (summary === undefined) throw archiveProblem(seen.at(-1)?.name ?? manifestMember, `the archive ends after this member, without ${summaryMember}: it was cut short (truncated)`);
  compareWithSummary(seen, summary);
  return { manifest, summary, sha256: fileTap.digest().sha256, ...(secretsKey === undefined ? {} : { secretsKey }) };
}

function digestOf(text: string): { size: number; sha256: string } {
  const bytes = Buffer.from(text, 'utf8');
  return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

function parseSummary(text: string): Summary {
  try {
    const parsed = Summary.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Told below, as for a summary of the wrong shape.
  }
  throw archiveProblem(summaryMember, 'it is not the summary of a Folio site archive (damaged)');
}

function compareWithSummary(seen: readonly SummaryMember[], summary: Summary): void {
  const listed = new Map(summary.members.map((member) => [member.name, member]));
  for (const member of seen) {
    const expected = listed.get(member.name);
    if (expected === undefined) throw archiveProblem(member.name, `the summary does not list this member: it was added to the archive afterwards`);
    if (expected.size !== member.size) throw archiveProblem(member.name, `it is ${member.size} bytes, the summary says ${expected.size}: the archive was changed`);
    if (expected.sha256 !== member.sha256) throw archiveProblem(member.name, "its SHA-256 is not the summary's: its bytes were changed (corrupted)");
    listed.delete(member.name);
  }
  const lost = [...listed.keys()];
  if (lost.length > 0) throw archiveProblem(lost[0]!, `the summary lists this member but the archive does not hold it${lost.length > 1 ? ` (nor ${lost.length - 1} more)` : ''}`);
}
