/**
 * Two steps of signing in (billing-service.ts has the use cases): an account from Google's verified claims (by Google
 * id, else by e-mail only when Google verified it, else a new one), and the room a guest claims when registering.
 */
import { DomainError, RegisterBodySchema, type AccountRoomsApi, type SessionAnswer } from '@ephemera/proto';
import type { z } from 'zod';
import type { AccountRow, AccountsRepository } from './accounts-repository.ts';
import type { AccountWrites } from './account-writes.ts';

/** Google's verified claims (google.ts): only an ID token checked by openid-client gets here. */
export interface VerifiedGoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

/** Google (google.ts verified the ID token): by Google id, else by e-mail only when Google verified it, else new. */
export async function accountOfGoogle(
  accounts: AccountsRepository,
  writes: AccountWrites,
  identity: VerifiedGoogleIdentity,
): Promise<AccountRow> {
  const byGoogle = await accounts.byGoogleId(identity.sub);
  if (byGoogle) return byGoogle;
  if (!identity.email || !identity.emailVerified)
    throw new DomainError('GOOGLE_AUTH_FAILED', 'Google did not confirm this e-mail address');
  const email = identity.email.trim().toLowerCase();
  return writes.mutex.run(`email:${email}`, async () => {
    const existing = await accounts.byEmail(email);
    if (existing) {
      await writes.recordFor(existing, 'account.google-linked', {
        accountId: existing.id,
        googleId: identity.sub,
        picture: identity.picture,
      });
      return (await accounts.byId(existing.id))!;
    }
    const username = (identity.name ?? email.split('@')[0] ?? 'user').trim().slice(0, 30) || 'user';
    return writes.create({ email, username, googleId: identity.sub, picture: identity.picture });
  });
}

/**
 * The room a guest claims as they register (its owner token in the body): the account is signed in either way, and a
 * claim that fails is said in the answer (the spec's text with the reason).
 */
export async function claimOnRegister(
  rooms: AccountRoomsApi,
  input: z.output<typeof RegisterBodySchema>,
  account: AccountRow,
  answer: SessionAnswer,
): Promise<SessionAnswer> {
  if (!input.claimWorkspaceId) return answer;
  if (!input.claimUserToken) return { ...answer, claimError: "CLAIM_FAILED: the room's owner token is missing" };
  try {
    const claim = await rooms.claimWorkspace({
      workspaceId: input.claimWorkspaceId,
      userToken: input.claimUserToken,
      accountId: account.id,
      tier: account.tier,
    });
    return { ...answer, newUserToken: claim.newUserToken, workspaceId: claim.workspaceId };
  } catch (err) {
    const reason = err instanceof DomainError ? err.message : 'please try again';
    return { ...answer, claimError: `Registration successful but failed to claim room ownership: ${reason}` };
  }
}
