/**
 * Channels: the ways a notification leaves the portal. E-mail is the first; each channel says
 * where a user is reached (`addressSql`, a column of app_user as `u`) and, in the sender, how a
 * message is handed over. A channel only gets outbox rows while it is switched on (mail: SMTP_URL
 * set), so turning it on later does not send a backlog of stale messages.
 *
 * Adding one (SMS, WeCom/DingTalk): give app_user the address column it needs (a mobile is there
 * already; a WeCom user id would be new), add its entry here with that column, and a sender
 * module beside mail.ts that turns a NotificationMessage into the provider's call and answers
 * the provider's reply (kept on the outbox row as its answer). The outbox, the retries and the
 * centre need no change.
 */
import { Prisma } from '../../generated/prisma/client.ts';

export type ChannelName = 'EMAIL';

export interface ChannelDef {
  name: ChannelName;
  /** The recipient's address on this channel, from app_user `u`; NULL: not reachable this way. */
  addressSql: Prisma.Sql;
}

export const EMAIL_CHANNEL: ChannelDef = { name: 'EMAIL', addressSql: Prisma.sql`NULLIF(btrim(u.email), '')` };

/**
 * The channels switched on in this process (set once at start from the configuration). Outbox
 * rows are written only for these.
 */
/** With a queue, each outbox row gets its delivery job (outbox.ts) in the same statement; tries per message. */
export interface QueueSettings {
  maxTries: number;
}

const active: { channels: readonly ChannelDef[]; queue?: QueueSettings } = { channels: [] };

export const activeChannels = (): readonly ChannelDef[] => active.channels;
export const activeQueue = (): QueueSettings | undefined => active.queue;

export function useChannels(channels: readonly ChannelDef[], queue?: QueueSettings): void {
  active.channels = channels;
  active.queue = queue;
}
