/** Which account a session token names, asked of billing over HTTP (distributed mode; embedded passes billing itself). */
import { ACCOUNT_INTERNAL, type AccountSessionsApi, type AccountStanding, type SessionAccount } from '@ephemera/proto';
import { serviceClient, type ServiceCredential } from '@ephemera/platform';

export class AccountSessionsClient implements AccountSessionsApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(billingUrl: string, credential: ServiceCredential) {
    this.call = serviceClient(billingUrl, credential);
  }
  async resolveSession(token: string): Promise<SessionAccount | null> {
    return (await this.call<{ account: SessionAccount | null }>(ACCOUNT_INTERNAL.resolveSession, { token })).account;
  }
  async standingOf(accountId: string): Promise<AccountStanding> {
    return (await this.call<{ standing: AccountStanding }>(ACCOUNT_INTERNAL.accountStanding, { accountId })).standing;
  }
}

/**
 * Without a billing service (BILLING_URL unset) no session is valid: account routes answer SESSION_INVALID; no room
 * can have been claimed by an account, so no owner's standing is ever asked.
 */
export const noAccountSessions: AccountSessionsApi = {
  resolveSession: async () => null,
  standingOf: async () => 'active',
};
