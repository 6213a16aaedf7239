import { hueOf, initialOf } from '../lib/format.ts';

export function Avatar({ name, size = 32 }: { name: string; size?: number }) {
  const hue = hueOf(name);
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.42, background: `hsl(${hue} 65% 52%)` }}
    >
      {initialOf(name)}
    </span>
  );
}
