/** A free room's call buttons (docs/product/calls.md C1): Voice Calls Unavailable / Video Calls Unavailable. */
import type { CallType } from '@ephemera/proto';
import { UpgradePromptModal } from '../UpgradePromptModal.tsx';
import { useCatalog, useT } from '../../i18n/i18n.ts';

export function CallUpgradeModal({ callType, onClose }: { callType: CallType; onClose(): void }) {
  useCatalog('room');
  const t = useT();
  const video = callType === 'video';
  return (
    <UpgradePromptModal
      title={t(video ? 'room.call.upgrade.titleVideo' : 'room.call.upgrade.titleVoice')}
      testId="call-upgrade-modal"
      linkTestId="call-upgrade-link"
      onClose={onClose}
    >
      <p>{t(video ? 'room.call.upgrade.textVideo' : 'room.call.upgrade.textVoice')}</p>
    </UpgradePromptModal>
  );
}
