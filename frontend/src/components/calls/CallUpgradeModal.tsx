/** A free room's call buttons (docs/product/calls.md C1): Voice Calls Unavailable / Video Calls Unavailable. */
import type { CallType } from '@ephemera/proto';
import { UpgradePromptModal } from '../UpgradePromptModal.tsx';

export const callUpgradeTitle = (callType: CallType) =>
  callType === 'video' ? 'Video Calls Unavailable' : 'Voice Calls Unavailable';

export function CallUpgradeModal({ callType, onClose }: { callType: CallType; onClose(): void }) {
  return (
    <UpgradePromptModal
      title={callUpgradeTitle(callType)}
      testId="call-upgrade-modal"
      linkTestId="call-upgrade-link"
      onClose={onClose}
    >
      <p>
        {callType === 'video' ? 'Video calls and screen sharing' : 'Voice calls'} are part of the Pro and Business
        plans. Upgrade to call the members of your room.
      </p>
    </UpgradePromptModal>
  );
}
