import { describe, expect, it } from 'vitest';
import { ENTITLEMENTS, VIDEO_QUALITY, videoCaptureConstraints, type Tier } from '../src/client.ts';

const TIERS = Object.keys(ENTITLEMENTS) as Tier[];

describe('video quality by tier (docs/product/calls.md C7)', () => {
  it('pro captures HD (1280x720), business full HD (1920x1080), at 30 frames a second, as ideal constraints', () => {
    expect(videoCaptureConstraints('pro')).toEqual({
      width: { ideal: 1280 },
      height: { ideal: 720 },
      frameRate: { ideal: 30 },
    });
    expect(videoCaptureConstraints('business')).toEqual({
      width: { ideal: 1920 },
      height: { ideal: 1080 },
      frameRate: { ideal: 30 },
    });
    expect(VIDEO_QUALITY.pro?.label).toBe('HD');
    expect(VIDEO_QUALITY.business?.label).toBe('Full HD');
  });

  it('a tier has a video quality exactly when it has video calls', () => {
    for (const tier of TIERS) expect(VIDEO_QUALITY[tier] !== null, tier).toBe(ENTITLEMENTS[tier].videoCalls);
    expect(videoCaptureConstraints('free')).toBe(true);
  });
});
