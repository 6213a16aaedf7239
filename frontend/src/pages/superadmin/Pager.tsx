/** Previous and Next under a list, with which rows of how many the page shows (the server's total). */
import { count } from './format.ts';
import { useT } from '../../i18n/i18n.ts';

export function Pager({
  page,
  pageSize,
  total,
  what,
  onPage,
  testId,
}: {
  page: number;
  pageSize: number;
  total: number;
  what: 'users' | 'rooms';
  onPage: (page: number) => void;
  testId: string;
}) {
  const t = useT();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : Math.min(total, (page - 1) * pageSize + 1);
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="sa-pager" aria-label={t('admin.pager.label', { what })} data-testid={testId}>
      <button
        type="button"
        className="button button-ghost button-sm"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        data-testid={`${testId}-prev`}
      >
        {t('admin.pager.previous')}
      </button>
      <span className="sa-muted" aria-live="polite" data-testid={`${testId}-status`}>
        {t('admin.pager.status', {
          first: count(first),
          last: count(last),
          total: count(total),
          what,
          page: count(page),
          pages: count(pages),
        })}
      </span>
      <button
        type="button"
        className="button button-ghost button-sm"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        data-testid={`${testId}-next`}
      >
        {t('admin.pager.next')}
      </button>
    </nav>
  );
}
