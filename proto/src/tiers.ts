/** A tier's room settings: plain code (no zod), shared by the services and the browser bundle. */
import { LIMITS, type Tier } from './limits.ts';
import type { WorkspaceSettings } from './models.ts';

/** Settings for a tier (specs/rooms.md section 6). */
export function settingsForTier(tier: Tier, customMaxUsers: number | null = null): WorkspaceSettings {
  switch (tier) {
    case 'free':
      return { tier, maxUsers: LIMITS.defaultMaxUsers, customMaxUsers: null, canUseThemes: false, maxFileSize: 10, canUseVoiceCalls: false, canUseVideoCalls: false };
    case 'pro':
      return { tier, maxUsers: customMaxUsers ?? 25, customMaxUsers, canUseThemes: true, maxFileSize: 100, canUseVoiceCalls: true, canUseVideoCalls: true };
    case 'business':
      return { tier, maxUsers: customMaxUsers, customMaxUsers, canUseThemes: true, maxFileSize: 500, canUseVoiceCalls: true, canUseVideoCalls: true };
  }
}
