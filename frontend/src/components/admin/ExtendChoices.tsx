/**
 * The two extensions a room offers (docs/product/rooms.md R35): 7 days, Standard, and 30 days, Maximum, marked
 * Popular. A free room pays once for either; pro and business rooms extend free.
 */
import { EXTENSION_PRICES } from '@ephemera/proto/client';
import { useT, type MessageId } from '../../i18n/i18n.ts';
import { formatCurrency } from '../../i18n/format.ts';

export type ExtendDays = 7 | 30;

/** the one-time price a free room pays, from proto's table (docs/product/payments.md PAY8), in the active language */
const priceOf = (days: ExtendDays) => formatCurrency(EXTENSION_PRICES[days] / 100, 'USD');

const EXTEND_CHOICES: readonly { days: ExtendDays; name: MessageId; popular: boolean }[] = [
  { days: 7, name: 'roomside.extend.standard', popular: false },
  { days: 30, name: 'roomside.extend.maximum', popular: true },
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
  const t = useT();
  return (
    <div className="extend-options" role="radiogroup" aria-label={t('roomside.extend.choices')}>
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
            <strong>{t('roomside.extend.days', { days: c.days })}</strong>
            {c.popular && (
              <span className="extend-popular" data-testid="extend-popular">
                {t('roomside.extend.popular')}
              </span>
            )}
          </span>
          <span className="extend-name" data-testid="extend-name">
            {t(c.name)}
          </span>
          <span className="muted">
            {free ? t('roomside.extend.included') : t('roomside.extend.oneTime', { price: priceOf(c.days) })}
          </span>
        </button>
      ))}
    </div>
  );
}
