/** Which account a session token names, asked of billing over HTTP (distributed mode; embedded passes billing itself). */
import { ACCOUNT_INTERNAL, type AccountSessionsApi, type SessionAccount } from '@ephemera/proto';
import { serviceClient, type ServiceCredential } from '@ephemera/platform';

export class AccountSessionsClient implements AccountSessionsApi {
  private readonly call: ReturnType<typeof serviceClient>;
  constructor(billingUrl: string, credential: ServiceCredential) { this.call = serviceClient(billingUrl, credential); }
  async resolveSession(token: string): Promise<SessionAccount | null> {
    return (await this.call<{ account: SessionAccount | null }>(ACCOUNT_INTERNAL.resolveSession, { token })).account;
  }
}

/** Without a billing service (BILLING_URL unset) no session is valid: account routes answer SESSION_INVALID. */
export const noAccountSessions: AccountSessionsApi = { resolveSession: async () => null };
