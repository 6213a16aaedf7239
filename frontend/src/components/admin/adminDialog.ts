/** Which administration dialog is open (one at a time); the settings panel and the sidebar open them. */
import type { ClaimOutcome } from '../../lib/claim.ts';
import type { Tier } from '@ephemera/proto/client';
import type { MessageId } from '../../i18n/i18n.ts';

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

/** The Upgrade required dialog's sentence per gated control (a key: the dialog reads it in the active language). */
export const UPGRADE_REASONS: Record<UpgradeFeature, MessageId> = {
  themes: 'roomside.upgradeReason.themes',
  customTheme: 'roomside.upgradeReason.customTheme',
  maxUsers: 'roomside.upgradeReason.maxUsers',
  extension: 'roomside.upgradeReason.extension',
};

/** Each plan's name (a key: read in the active language). */
export const TIER_NAME_KEYS: Record<Tier, MessageId> = {
  free: 'roomside.tier.free',
  pro: 'roomside.tier.pro',
  business: 'roomside.tier.business',
};
