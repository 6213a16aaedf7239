/** The superadmin's actions on rooms (AdminRoomsApi; issue 10, rooms tab). The room service records its own events. */
import { DomainError, type AdminRoomsApi } from '@ephemera/proto';
import type { RoomService } from './room-service.ts';

export class AdminRooms implements AdminRoomsApi {
  constructor(private readonly rooms: RoomService) {}

  async extendByAdmin(_input: { workspaceId: string; hours: 168 | 720 }): Promise<{ workspaceId: string; expiresAt: string | null }> { throw new DomainError('UNAVAILABLE'); }
  async deleteByAdmin(_input: { workspaceId: string; reason: string }): Promise<{ workspaceId: string }> { throw new DomainError('UNAVAILABLE'); }
}
