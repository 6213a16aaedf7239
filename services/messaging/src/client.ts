/** MessagingApi over HTTP, for the gateway in distributed mode: its commands from the command table (commandClient). */
import { INTERNAL, type MessagingApi } from '@ephemera/proto';
import { commandClient, serviceClient, type ServiceCredential } from '@ephemera/platform';

export function messagingClient(baseUrl: string, credential: ServiceCredential): MessagingApi {
  return commandClient(
    serviceClient(baseUrl, credential, undefined, { batchPath: INTERNAL.messagingBatch }),
    'messaging',
  );
}
