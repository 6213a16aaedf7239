/** The superadmin's moderation viewer (AdminMessagingApi; issue 10): a room's latest messages across its channels. */
import { DomainError, type AdminMessagingApi, type ModerationMessage } from '@ephemera/proto';
import type { MessagingService } from './messaging-service.ts';

export class AdminMessaging implements AdminMessagingApi {
  constructor(private readonly messaging: MessagingService) {}

  async moderationMessages(_input: { workspaceId: string; limit: number }): Promise<ModerationMessage[]> { throw new DomainError('UNAVAILABLE'); }
}
