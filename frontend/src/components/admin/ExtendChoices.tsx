/**
 * The two extensions a room offers (docs/product/rooms.md R35): 7 days, Standard, and 30 days, Maximum, marked
 * Popular. A free room pays once for either; pro and business rooms extend free.
 */
import { EXTENSION_PRICES } from '@ephemera/proto/client';

export type ExtendDays = 7 | 30;

/** the one-time price a free room pays, from proto's table (docs/product/payments.md PAY8) */
const priceOf = (days: ExtendDays) => `$${(EXTENSION_PRICES[days] / 100).toFixed(2)} one-time`;

const EXTEND_CHOICES: readonly { days: ExtendDays; name: string; price: string; popular: boolean }[] = [
  { days: 7, name: 'Standard', price: priceOf(7), popular: false },
  { days: 30, name: 'Maximum', price: priceOf(30), popular: true },
];

export function ExtendChoices({
  days,
  free,
  onChoose,
}: {
  days: ExtendDays;
  free: boolean;
  onChoose(days: ExtendDays): void;
}) {
  return (
    <div className="extend-options" role="radiogroup" aria-label="Extension">
      {EXTEND_CHOICES.map((c) => (
        <button
          key={c.days}
          type="button"
          role="radio"
          aria-checked={days === c.days}
          className={`extend-option${days === c.days ? ' selected' : ''}`}
          onClick={() => onChoose(c.days)}
          data-testid={`extend-${c.days}`}
        >
          <span className="extend-option-head">
            <strong>{c.days} days</strong>
            {c.popular && (
              <span className="extend-popular" data-testid="extend-popular">
                Popular
              </span>
            )}
          </span>
          <span className="extend-name" data-testid="extend-name">
            {c.name}
          </span>
          <span className="muted">{free ? 'Included in your plan' : c.price}</span>
        </button>
      ))}
    </div>
  );
}
