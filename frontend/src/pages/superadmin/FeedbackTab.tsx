/**
 * Feedback tab: the contact messages with counts total, pending, read, responded; each row with the contact's name and
 * email, the message, a status dropdown (pending, read, responded, archived), the date, and delete with confirmation.
 */
import { CONTACT_STATUSES, type ContactStatus } from '@ephemera/proto/client';
import { adminApi } from '../../lib/adminApi.ts';
import { useT, type MessageId } from '../../i18n/i18n.ts';
import type { TabProps } from './tabProps.ts';
import { FigureSection, Unavailable } from './ui.tsx';
import { count, dateTimeOf } from './format.ts';

const STATUS_LABEL: Record<ContactStatus, MessageId> = {
  pending: 'admin.feedback.status.pending',
  read: 'admin.feedback.status.read',
  responded: 'admin.feedback.status.responded',
  archived: 'admin.feedback.status.archived',
};

export function FeedbackTab({ data, reload, ask, toast }: TabProps) {
  const t = useT();
  const feedback = data.feedback;

  const setStatus = async (id: string, status: ContactStatus) => {
    const r = await adminApi.feedbackStatus(id, status);
    if (!r.ok) {
      toast.error(r.status === 0 ? t('admin.feedback.statusError') : t('admin.feedback.statusFailed'));
      return;
    }
    void reload(['feedback']);
  };
  const remove = async (id: string) => {
    if (!(await ask.confirm(t('admin.feedback.deleteConfirm')))) return;
    const r = await adminApi.deleteFeedback(id);
    if (r.ok) {
      toast.success(t('admin.feedback.deleted'));
      void reload(['feedback']);
    } else toast.error(r.status === 0 ? t('admin.feedback.deleteError') : t('admin.feedback.deleteFailed'));
  };

  if (!feedback) return <Unavailable what={t('admin.feedback.feedback')} />;
  return (
    <>
      <FigureSection
        title={t('admin.feedback.feedback')}
        testId="sa-feedback"
        figures={[
          { label: t('admin.feedback.total'), value: count(feedback.counts.total), testId: 'sa-feedback-total' },
          { label: t('admin.feedback.pending'), value: count(feedback.counts.pending), testId: 'sa-feedback-pending' },
          { label: t('admin.feedback.read'), value: count(feedback.counts.read), testId: 'sa-feedback-read' },
          {
            label: t('admin.feedback.responded'),
            value: count(feedback.counts.responded),
            testId: 'sa-feedback-responded',
          },
        ]}
      />
      <div className="sa-table-wrap">
        <table className="sa-table" data-testid="sa-feedback-table">
          <caption className="sa-sr-only">{t('admin.feedback.contactMessages')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.feedback.contact')}</th>
              <th scope="col">{t('admin.feedback.message')}</th>
              <th scope="col">{t('admin.feedback.status')}</th>
              <th scope="col">{t('admin.feedback.date')}</th>
              <th scope="col">{t('admin.feedback.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {feedback.messages.map((m) => (
              <tr key={m.id} data-testid="sa-feedback-row">
                <td className="sa-wrap">
                  <strong>{m.name}</strong>
                  <br />
                  <span className="sa-muted">{m.email}</span>
                </td>
                <td className="sa-message-cell" data-testid="sa-feedback-message">
                  {m.message}
                </td>
                <td>
                  <select
                    className="sa-input"
                    value={m.status}
                    onChange={(e) => void setStatus(m.id, e.target.value as ContactStatus)}
                    aria-label={t('admin.feedback.statusLabel', { name: m.name })}
                    data-testid="sa-feedback-status"
                  >
                    {CONTACT_STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {t(STATUS_LABEL[s])}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{dateTimeOf(m.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    className="button button-danger button-sm"
                    onClick={() => void remove(m.id)}
                    aria-label={t('admin.feedback.deleteLabel', { name: m.name })}
                    data-testid="sa-feedback-delete"
                  >
                    {t('admin.feedback.delete')}
                  </button>
                </td>
              </tr>
            ))}
            {feedback.messages.length === 0 && (
              <tr>
                <td colSpan={5} className="sa-muted">
                  {t('admin.feedback.noFeedbackMessages')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
