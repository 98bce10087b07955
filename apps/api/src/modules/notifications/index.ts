/** What other modules use of notifications: the events they write on their transactions, and the routes. */
export {
  noticePublished,
  noticeWithdrawn,
  noticeReminded,
  applicationSubmitted,
  applicationDecided,
  questionAssigned,
  questionReplied,
  countersignWaiting,
  countersignReturned,
  countersignCompleted,
} from './events.ts';
export { notificationRoutes } from './routes.ts';
export { EMAIL_CHANNEL, useChannels } from './channels.ts';
export { outboxPlugin } from './outbox.ts';
export { markSeen } from './service.ts';
export { sendDailyReminders } from './reminders.ts';
