/** Previous and Next under a list, with which rows of how many the page shows (the server's total). */
import { count } from './format.ts';

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
  what: string;
  onPage: (page: number) => void;
  testId: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : Math.min(total, (page - 1) * pageSize + 1);
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="sa-pager" aria-label={`${what} pages`} data-testid={testId}>
      <button
        type="button"
        className="button button-ghost button-sm"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        data-testid={`${testId}-prev`}
      >
        Previous
      </button>
      <span className="sa-muted" aria-live="polite" data-testid={`${testId}-status`}>
        {count(first)}–{count(last)} of {count(total)} {what.toLowerCase()} · page {count(page)} of {count(pages)}
      </span>
      <button
        type="button"
        className="button button-ghost button-sm"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        data-testid={`${testId}-next`}
      >
        Next
      </button>
    </nav>
  );
}
