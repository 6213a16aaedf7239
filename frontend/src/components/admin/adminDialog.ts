/** Which administration dialog is open (one at a time); the settings panel and the sidebar open them. */
import type { ClaimOutcome } from '../../lib/claim.ts';

export type UpgradeFeature = 'themes' | 'customTheme' | 'maxUsers' | 'extension';

export type AdminDialog =
  | { kind: 'password' }
  | { kind: 'maxUsers' }
  | { kind: 'extend' }
  | { kind: 'deleteRoom' }
  | { kind: 'upgrade'; feature: UpgradeFeature }
  | { kind: 'theme' }
  | { kind: 'customTheme' }
  | { kind: 'kick'; userId: string; username: string }
  /** Claim Your Room; with the outcome when a claim through Google finished while the page was away */
  | { kind: 'claim'; outcome?: ClaimOutcome }
  /** Upgrade Plans: the plans, inside the room */
  | { kind: 'plans' };

/** The Upgrade required dialog's sentence per gated control. */
export const UPGRADE_REASONS: Record<UpgradeFeature, string> = {
  themes: 'This theme is a premium theme. Upgrade to Pro or Business to use all 10 themes.',
  customTheme: 'Custom themes with your own colours, font and logo are part of the Business plan.',
  maxUsers: 'Setting the maximum number of users needs the Pro or Business plan.',
  extension: 'Extending a free room needs a paid plan. Upgrade, or pay once for a 7 or 30 day extension.',
};
