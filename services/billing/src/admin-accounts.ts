/** The superadmin's actions on accounts (AdminAccountsApi; issue 10, users tab). Billing records its own events. */
import { DomainError, type AdminAccountsApi, type SessionAccount } from '@ephemera/proto';
import type { BillingService } from './billing-service.ts';

export class AdminAccounts implements AdminAccountsApi {
  constructor(private readonly billing: BillingService) {}

  resolveSession(input: { token: string }): Promise<SessionAccount | null> { return this.billing.resolveSession(input.token); }
  async suspendAccount(_input: { email: string; suspended: boolean; reason: string | null }): Promise<{ accountId: string }> { throw new DomainError('UNAVAILABLE'); }
  async deleteAccountByAdmin(_input: { email: string; reason: string }): Promise<{ accountId: string; deletedRooms: string[] }> { throw new DomainError('UNAVAILABLE'); }
  async grantAdminTrial(_input: { email: string; tier: 'pro' | 'business'; days: number }): Promise<{ accountId: string; until: string }> { throw new DomainError('UNAVAILABLE'); }
}
