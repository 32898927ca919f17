/**
 * A backup's name: `folio-backup-` and the UTC time it was taken, to the millisecond, in a form that
 * sorts as time does and is valid in every file system (`folio-backup-20261129T193512.123Z`).
 */
const prefix = 'folio-backup-';
const pattern = /^folio-backup-\d{8}T\d{6}\.\d{3}Z$/;

export function backupName(at: Date): string {
  return `${prefix}${at.toISOString().replaceAll('-', '').replaceAll(':', '')}`;
}

/** Whether a name is one `backupName` gives: the first of the two things retention asks of a backup. */
export function isBackupName(name: string): boolean {
  return pattern.test(name);
}
