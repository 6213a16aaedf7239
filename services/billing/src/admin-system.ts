/** What the superadmin's System, Feedback and Settings tabs need of billing (AdminBillingSystemApi; issue 10). */
import { DomainError, type AdminBillingSystemApi, type ContactCounts, type ContactMessageView, type ContactStatus, type EligibleUser } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';
import type { BillingService } from './billing-service.ts';

export class AdminBillingSystem implements AdminBillingSystemApi {
  constructor(private readonly billing: BillingService, private readonly pool: Pool) {}

  async feedbackList(_input: { limit?: number }): Promise<{ messages: ContactMessageView[]; counts: ContactCounts }> { throw new DomainError('UNAVAILABLE'); }
  async feedbackSetStatus(_input: { id: string; status: ContactStatus }): Promise<{ id: string; status: ContactStatus }> { throw new DomainError('UNAVAILABLE'); }
  async feedbackDelete(_input: { id: string }): Promise<{ id: string }> { throw new DomainError('UNAVAILABLE'); }
  async inactiveAccounts(_input: { graceDays: number; days: number }): Promise<Array<EligibleUser & { accountId: string }>> { throw new DomainError('UNAVAILABLE'); }
  async cleanupExpired(_input: Record<string, never>): Promise<{ removed: number }> { throw new DomainError('UNAVAILABLE'); }
  async failedSignIns(_input: { since: string }): Promise<{ count: number }> { throw new DomainError('UNAVAILABLE'); }
}
