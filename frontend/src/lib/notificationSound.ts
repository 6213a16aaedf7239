/**
 * The notification sound (docs/product/messages.md M10): a sine beep of 800 Hz then 600 Hz,
 * 0.3 s in all, played only if the user has interacted with the page, sound is enabled, and the message is not
 * in the current channel while the tab is visible; never for own or system messages. The preference is stored
 * locally (SOUND_PREF_KEY).
 *
 * Pure parts (unit-tested): shouldPlay, newIncomingMessages. The rest touches the browser.
 */
import type { Message } from '@ephemera/proto';
import type { RoomState } from '../state/roomState.ts';

// ---- the decision ----

export interface PlayInput {
  message: Pick<Message, 'authorId' | 'type' | 'channelId'>;
  selfId: string | null;
  currentChannelId: string | null;
  tabVisible: boolean;
  soundEnabled: boolean;
  userInteracted: boolean;
}

export function shouldPlay({
  message,
  selfId,
  currentChannelId,
  tabVisible,
  soundEnabled,
  userInteracted,
}: PlayInput): boolean {
  if (!soundEnabled || !userInteracted) return false;
  if (message.type === 'system') return false;
  if (selfId !== null && message.authorId === selfId) return false;
  if (tabVisible && message.channelId === currentChannelId) return false;
  return true;
}

/** How far a new message's server time may lie before the session's start (clock skew) and still be news. */
export const CLOCK_SKEW_MS = 5_000;

/**
 * Messages that arrived between two room states: ids new to their channel, past everything seen before (seq), and
 * not older than the session (a channel's history loaded on open is not news). Nothing before the first join.
 */
export function newIncomingMessages(prev: RoomState, next: RoomState): Message[] {
  if (prev.messages === next.messages || !prev.everJoined || !next.everJoined) return [];
  const out: Message[] = [];
  for (const [channelId, list] of Object.entries(next.messages)) {
    const before = prev.messages[channelId];
    if (list === before) continue;
    // A channel's messages are in seq order and every held one is at or below prev.lastSeq: only the tail past it
    // can be news (a long history is not walked for each arriving message).
    let from = list.length;
    while (from > 0 && list[from - 1]!.seq > prev.lastSeq) from -= 1;
    const known = new Set((before ?? []).filter((m) => m.seq > prev.lastSeq).map((m) => m.id));
    for (const m of list.slice(from)) {
      if (known.has(m.id)) continue;
      const t = Date.parse(m.timestamp);
      if (Number.isFinite(t) && next.sessionStartedAt > 0 && t < next.sessionStartedAt - CLOCK_SKEW_MS) continue;
      out.push(m);
    }
  }
  return out;
}

// ---- the preference (localStorage), shared by the toggle and the player ----

/** localStorage key of the sound preference ("true" / "false"; absent = on). */
export const SOUND_PREF_KEY = 'soundEnabled';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

function storage(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function readSoundEnabled(store: KeyValueStore | null = storage()): boolean {
  try {
    return store?.getItem(SOUND_PREF_KEY) !== 'false';
  } catch {
    return true;
  }
}

const prefListeners = new Set<() => void>();

export function setSoundEnabled(enabled: boolean, store: KeyValueStore | null = storage()): void {
  try {
    store?.setItem(SOUND_PREF_KEY, String(enabled));
  } catch {
    /* storage disabled: on for this page only */
  }
  memo = enabled;
  for (const l of [...prefListeners]) l();
}

let memo: boolean | null = null;
/** For useSyncExternalStore. */
export function getSoundEnabled(): boolean {
  if (memo === null) memo = readSoundEnabled();
  return memo;
}
export function subscribeSoundEnabled(listener: () => void): () => void {
  prefListeners.add(listener);
  return () => {
    prefListeners.delete(listener);
  };
}

// ---- user interaction (browsers only let a page make sound after one) ----

let interacted = false;
let tracking = false;

export function hasUserInteracted(): boolean {
  const activation = (globalThis.navigator as (Navigator & { userActivation?: { hasBeenActive: boolean } }) | undefined)
    ?.userActivation;
  return interacted || Boolean(activation?.hasBeenActive);
}

/** Start noticing the first click, tap or key press of this page. */
export function trackUserInteraction(): void {
  if (tracking || typeof window === 'undefined') return;
  tracking = true;
  const mark = () => {
    interacted = true;
    for (const t of ['pointerdown', 'keydown', 'touchstart'] as const) window.removeEventListener(t, mark, true);
  };
  for (const t of ['pointerdown', 'keydown', 'touchstart'] as const) window.addEventListener(t, mark, true);
}

// ---- the beep (Web Audio) ----

export const BEEP = { firstHz: 800, secondHz: 600, totalSeconds: 0.3, gain: 0.12 } as const;

let audio: AudioContext | null = null;

/** Play the two-tone beep; never throws (no Web Audio, a suspended context: silence). */
export function playNotificationSound(): void {
  try {
    const Ctx =
      globalThis.AudioContext ??
      (globalThis as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    const ctx = audio;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
    const start = ctx.currentTime + 0.01;
    const half = BEEP.totalSeconds / 2;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.setValueAtTime(BEEP.firstHz, start);
    osc.frequency.setValueAtTime(BEEP.secondHz, start + half);
    // short ramps at the ends so the beep does not click
    gain.gain.setValueAtTime(0, start);
    gain.gain.linearRampToValueAtTime(BEEP.gain, start + 0.01);
    gain.gain.setValueAtTime(BEEP.gain, start + BEEP.totalSeconds - 0.02);
    gain.gain.linearRampToValueAtTime(0, start + BEEP.totalSeconds);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(start);
    osc.stop(start + BEEP.totalSeconds);
    osc.onended = () => {
      osc.disconnect();
      gain.disconnect();
    };
  } catch {
    /* no sound is better than a broken page */
  }
}
