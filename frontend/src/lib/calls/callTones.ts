/**
 * Call sounds on the Web Audio API (no audio files to ship): the incoming ringtone (two-tone ring, 2 s period) and the
 * caller's ringing tone (one 440+480 Hz burst every 3 s, as on a phone line). Both loop until stopped. A browser that
 * blocks audio before any user gesture just stays silent.
 */
type Pattern = { freqs: number[]; onMs: number; periodMs: number; gain: number };
const RINGTONE: Pattern = { freqs: [800, 600], onMs: 400, periodMs: 2000, gain: 0.08 };
const RINGBACK: Pattern = { freqs: [440, 480], onMs: 1000, periodMs: 3000, gain: 0.05 };

export interface Tone {
  stop(): void;
}

function loop(pattern: Pattern): Tone {
  const Ctx =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return { stop() {} };
  let ctx: AudioContext | null = null;
  try {
    ctx = new Ctx();
  } catch {
    return { stop() {} };
  }
  const beep = () => {
    if (!ctx) return;
    const gain = ctx.createGain();
    gain.gain.value = pattern.gain;
    gain.connect(ctx.destination);
    const end = ctx.currentTime + pattern.onMs / 1000;
    pattern.freqs.forEach((f, i) => {
      const osc = ctx!.createOscillator();
      osc.frequency.value = f;
      osc.connect(gain);
      // a ringtone alternates its two tones; a ringing tone plays them together
      const start =
        pattern === RINGTONE ? ctx!.currentTime + (i * pattern.onMs) / 1000 / pattern.freqs.length : ctx!.currentTime;
      osc.start(start);
      osc.stop(pattern === RINGTONE ? start + pattern.onMs / 1000 / pattern.freqs.length : end);
    });
  };
  beep();
  const timer = setInterval(beep, pattern.periodMs);
  return {
    stop() {
      clearInterval(timer);
      void ctx?.close().catch(() => {});
      ctx = null;
    },
  };
}

export const playRingtone = (): Tone => loop(RINGTONE);
export const playRingback = (): Tone => loop(RINGBACK);
