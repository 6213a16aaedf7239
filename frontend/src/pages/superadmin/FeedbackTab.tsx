/**
 * Feedback tab: the contact messages with counts total, pending, read, responded; each row with the contact's name and
 * email, the message, a status dropdown (pending, read, responded, archived), the date, and delete with confirmation.
 */
import { CONTACT_STATUSES, type ContactStatus } from '@ephemera/proto/client';
import { ADMIN_TEXT, adminApi } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { FigureSection, Unavailable } from './ui.tsx';
import { count, dateTimeOf } from './format.ts';

export function FeedbackTab({ data, reload, ask, toast }: TabProps) {
  const feedback = data.feedback;

  const setStatus = async (id: string, status: ContactStatus) => {
    const r = await adminApi.feedbackStatus(id, status);
    if (!r.ok) {
      toast.error(r.status === 0 ? 'Status update failed' : 'Failed to update status');
      return;
    }
    void reload(['feedback']);
  };
  const remove = async (id: string) => {
    if (!(await ask.confirm(ADMIN_TEXT.feedbackDeleteConfirm))) return;
    const r = await adminApi.deleteFeedback(id);
    if (r.ok) {
      toast.success('Feedback message deleted successfully');
      void reload(['feedback']);
    } else toast.error(r.status === 0 ? 'Delete failed' : 'Failed to delete feedback message');
  };

  if (!feedback) return <Unavailable what="Feedback" />;
  return (
    <>
      <FigureSection
        title="Feedback"
        testId="sa-feedback"
        figures={[
          { label: 'Total', value: count(feedback.counts.total), testId: 'sa-feedback-total' },
          { label: 'Pending', value: count(feedback.counts.pending), testId: 'sa-feedback-pending' },
          { label: 'Read', value: count(feedback.counts.read), testId: 'sa-feedback-read' },
          { label: 'Responded', value: count(feedback.counts.responded), testId: 'sa-feedback-responded' },
        ]}
      />
      <div className="sa-table-wrap">
        <table className="sa-table" data-testid="sa-feedback-table">
          <caption className="sa-sr-only">Contact messages</caption>
          <thead>
            <tr>
              <th scope="col">Contact</th>
              <th scope="col">Message</th>
              <th scope="col">Status</th>
              <th scope="col">Date</th>
              <th scope="col">Actions</th>
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
                    aria-label={`Status of the message from ${m.name}`}
                    data-testid="sa-feedback-status"
                  >
                    {CONTACT_STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {s}
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
                    aria-label={`Delete the message from ${m.name}`}
                    data-testid="sa-feedback-delete"
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
            {feedback.messages.length === 0 && (
              <tr>
                <td colSpan={5} className="sa-muted">
                  No feedback messages.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
