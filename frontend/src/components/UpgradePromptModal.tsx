/**
 * The Upgrade required family of dialogs (docs/product/limits.md L1): a gated control explains what the plan
 * lacks and links to the plans. One frame for the admin controls, file sizes and calls; each passes its title, text
 * and test ids.
 */
import type { ReactNode } from 'react';
import { Modal } from './Modal.tsx';
import { SparkIcon } from './Icons.tsx';
import { useT } from '../i18n/i18n.ts';

export function UpgradePromptModal({
  title,
  testId,
  linkTestId,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  linkTestId: string;
  onClose(): void;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <Modal
      title={title}
      onClose={onClose}
      tone="warning"
      icon={<SparkIcon size={22} />}
      testId={testId}
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>
            {t('roomside.upgrade.notNow')}
          </button>
          <a className="button button-primary" href="/upgrade" data-testid={linkTestId}>
            {t('roomside.upgrade.viewPlans')}
          </a>
        </>
      }
    >
      {children}
    </Modal>
  );
}
