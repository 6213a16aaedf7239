/** Backup management (System tab): generate a backup, import a .json file (only), the list with downloads. */
import { useRef, useState, type ChangeEvent } from 'react';
import { ADMIN_API, adminApi, adminDownload } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Section, Unavailable } from './ui.tsx';
import { bytes, dateTimeOf } from './format.ts';
import { useT } from '../../i18n/i18n.ts';

export function BackupsPanel({ data, reload, toast }: Pick<TabProps, 'data' | 'reload' | 'toast'>) {
  const t = useT();
  const [busy, setBusy] = useState<'generate' | 'import' | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const after = () => void reload(['backups', 'storage']);

  const generate = async () => {
    setBusy('generate');
    const r = await adminApi.generateBackup();
    setBusy(null);
    if (r.ok) {
      toast.success(t('admin.backups.generated'));
      after();
    } else toast.error(r.status === 0 ? t('admin.backups.generateError') : t('admin.backups.generateFailed'));
  };
  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    // .json files only (docs/product/admin.md ADM9)
    if (!file.name.toLowerCase().endsWith('.json')) {
      toast.error(t('admin.backups.jsonOnly'));
      return;
    }
    setBusy('import');
    const r = await adminApi.importBackup(file);
    setBusy(null);
    if (r.ok) {
      toast.success(t('admin.backups.imported'));
      void reload();
    } else toast.error(r.status === 0 ? t('admin.backups.importError') : t('admin.backups.importFailed'));
  };
  const download = async (filename: string, url: string) => {
    const path = url.startsWith('/') ? url : ADMIN_API.backupDownload(filename);
    if (!(await adminDownload(path, filename))) toast.error(t('admin.exportFailed'));
  };

  return (
    <Section
      title={t('admin.backups.backupManagement')}
      testId="sa-backups"
      actions={
        <>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void generate()}
            disabled={busy !== null}
            data-testid="sa-backup-generate"
          >
            {busy === 'generate' ? t('admin.backups.generating') : t('admin.backups.generate')}
          </button>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => fileRef.current?.click()}
            disabled={busy !== null}
            data-testid="sa-backup-import"
          >
            {busy === 'import' ? t('admin.backups.importing') : t('admin.backups.import')}
          </button>
          <input
            ref={fileRef}
            type="file"
            accept=".json,application/json"
            hidden
            onChange={(e) => void importFile(e)}
            data-testid="sa-backup-file"
            aria-label={t('admin.backups.backupFileJson')}
          />
        </>
      }
    >
      {data.backups ? (
        data.backups.length === 0 ? (
          <p className="sa-muted">{t('admin.backups.noBackupsYet')}</p>
        ) : (
          <ul className="sa-list" data-testid="sa-backup-list">
            {data.backups.map((b) => (
              <li key={b.filename} data-testid="sa-backup-row">
                <span className="sa-mono sa-wrap">{b.filename}</span>
                <span className="sa-muted">
                  {dateTimeOf(b.createdAt)} · {bytes(b.size)}
                </span>
                <button
                  type="button"
                  className="button button-ghost button-sm"
                  onClick={() => void download(b.filename, b.downloadUrl)}
                  aria-label={t('admin.backups.downloadLabel', { file: b.filename })}
                >
                  {t('admin.backups.download')}
                </button>
              </li>
            ))}
          </ul>
        )
      ) : (
        <Unavailable what={t('admin.backups.unavailable')} />
      )}
    </Section>
  );
}
