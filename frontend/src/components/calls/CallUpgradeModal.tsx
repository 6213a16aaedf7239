/** A free room's call buttons (specs/rooms.md section 6): Voice Calls Unavailable / Video Calls Unavailable. */
import type { CallType } from '@ephemera/proto';
import { Modal } from '../Modal.tsx';
import { SparkIcon } from '../Icons.tsx';

export const callUpgradeTitle = (callType: CallType) => (callType === 'video' ? 'Video Calls Unavailable' : 'Voice Calls Unavailable');

export function CallUpgradeModal({ callType, onClose }: { callType: CallType; onClose(): void }) {
  return (
    <Modal title={callUpgradeTitle(callType)} onClose={onClose} tone="warning" icon={<SparkIcon size={22} />} testId="call-upgrade-modal"
      footer={(
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>Not now</button>
          <a className="button button-primary" href="/upgrade" data-testid="call-upgrade-link">View Plans</a>
        </>
      )}>
      <p>{callType === 'video' ? 'Video calls and screen sharing' : 'Voice calls'} are part of the Pro and Business plans. Upgrade to call the members of your room.</p>
    </Modal>
  );
}
