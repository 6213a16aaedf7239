/** The maintenance banner's text (docs/product/admin.md ADM10, docs/i18n.md): the default in the active language. */
import { describe, expect, it } from 'vitest';
import { ADMIN_TEXT } from '@ephemera/proto/client';
import { activateLocale, t } from '../../i18n/i18n.ts';
import { maintenanceText } from './MaintenanceBanner.tsx';

describe('maintenance banner text', () => {
  it('shows the default text in the active language and the superadmin’s own message as written', async () => {
    await activateLocale('en', ['common']);
    expect(maintenanceText(ADMIN_TEXT.maintenanceDefault, t)).toBe(ADMIN_TEXT.maintenanceDefault);
    expect(maintenanceText('Back at 10:00', t)).toBe('Back at 10:00');
    await activateLocale('de', ['common']);
    expect(maintenanceText(ADMIN_TEXT.maintenanceDefault, t)).toBe(
      'Das System wird gerade gewartet. Bitte versuche es später noch einmal.',
    );
    expect(maintenanceText('Back at 10:00', t)).toBe('Back at 10:00');
    await activateLocale('en', ['common']);
  });
});
