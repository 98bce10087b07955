/**
 * The e-mail channel's sender: a notification as a Chinese mail (subject, plain text and HTML)
 * handed to the SMTP server with nodemailer. The mail says what happened, by when, and links to
 * the page (PUBLIC_URL + its path, e.g. /esm/supplier/noticeOfChangeOfDrawings?id=12; signing in
 * keeps the path and returns there). It carries no drawing and no attachment.
 */
import type { Transporter } from 'nodemailer';
import type { MailConfig } from '../../config.ts';
import { cstDay } from '../../lib/dates.ts';

export const PORTAL_NAME = 'ESM 图纸档案门户';

export interface NotificationMessage {
  to: string;
  recipientName: string;
  subject: string;
  body: string | null;
  linkPath: string;
  dueDate: Date | null;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderMail(m: NotificationMessage, publicUrl: string): RenderedMail {
  const link = `${publicUrl}${m.linkPath}`;
  const due = m.dueDate ? `截止日期：${cstDay(m.dueDate)}` : null;
  const lines = [
    `${m.recipientName}，您好：`,
    '',
    m.subject,
    ...(m.body ? [m.body] : []),
    ...(due ? [due] : []),
    '',
    `查看详情：${link}`,
    '',
    `—— ${PORTAL_NAME}（系统邮件，请勿直接回复）`,
  ];
  const html = `<!doctype html><html lang="zh-CN"><body style="font-family:sans-serif;font-size:14px;color:#222">
<p>${escapeHtml(m.recipientName)}，您好：</p>
<p><strong>${escapeHtml(m.subject)}</strong></p>
${m.body ? `<p>${escapeHtml(m.body)}</p>` : ''}${due ? `<p>${escapeHtml(due)}</p>` : ''}
<p><a href="${escapeHtml(link)}">查看详情</a></p>
<p style="color:#888;font-size:12px">${PORTAL_NAME}（系统邮件，请勿直接回复）</p>
</body></html>`;
  return { subject: `【${PORTAL_NAME}】${m.subject}`, text: lines.join('\n'), html };
}

/** One user's digest: the day's notifications in one mail, each with its link. */
export interface DigestMessage {
  to: string;
  recipientName: string;
  /** YYYY-MM-DD (UTC+8) */
  day: string;
  items: Omit<NotificationMessage, 'to' | 'recipientName'>[];
}

export function renderDigest(d: DigestMessage, publicUrl: string): RenderedMail {
  const items = d.items.map((m) => ({
    ...m,
    link: `${publicUrl}${m.linkPath}`,
    due: m.dueDate ? `截止日期：${cstDay(m.dueDate)}` : null,
  }));
  const lines = [
    `${d.recipientName}，您好：`,
    '',
    `以下是您 ${d.day} 的 ${items.length} 条通知：`,
    '',
    ...items.flatMap((m, i) => [
      `${i + 1}. ${m.subject}`,
      ...(m.body ? [`   ${m.body}`] : []),
      ...(m.due ? [`   ${m.due}`] : []),
      `   查看详情：${m.link}`,
      '',
    ]),
    `—— ${PORTAL_NAME}（每日汇总，系统邮件，请勿直接回复；可在个人设置中改为即时发送）`,
  ];
  const html = `<!doctype html><html lang="zh-CN"><body style="font-family:sans-serif;font-size:14px;color:#222">
<p>${escapeHtml(d.recipientName)}，您好：</p>
<p>以下是您 ${escapeHtml(d.day)} 的 ${items.length} 条通知：</p>
<ol>
${items.map((m) => `<li><p><strong>${escapeHtml(m.subject)}</strong>${m.body ? `<br>${escapeHtml(m.body)}` : ''}${m.due ? `<br>${escapeHtml(m.due)}` : ''}<br><a href="${escapeHtml(m.link)}">查看详情</a></p></li>`).join('\n')}
</ol>
<p style="color:#888;font-size:12px">${PORTAL_NAME}（每日汇总，系统邮件，请勿直接回复；可在个人设置中改为即时发送）</p>
</body></html>`;
  return { subject: `【${PORTAL_NAME}】${d.day} 通知汇总（${items.length} 条）`, text: lines.join('\n'), html };
}

/** What the server said when it accepted a mail, and the Message-ID the mail carries (a bounce names it). */
export interface SentMail {
  answer: string;
  messageId: string | null;
}

export interface MailSender {
  /** Hands the mail over; answers the server's reply (250 …). Throws with the server's answer when refused. */
  send(m: NotificationMessage): Promise<SentMail>;
  /** The same for one user's daily digest. */
  sendDigest(d: DigestMessage): Promise<SentMail>;
  close(): void;
}

/** nodemailer over SMTP_URL (loaded on first use: a start without mail never reads it). */
export async function smtpSender(mail: MailConfig): Promise<MailSender> {
  const nodemailer = await import('nodemailer');
  const transport: Transporter = nodemailer.createTransport(mail.smtpUrl);
  const sendRendered = async (to: string, r: RenderedMail): Promise<SentMail> => {
    const info = await transport.sendMail({ from: mail.from, to, subject: r.subject, text: r.text, html: r.html });
    return {
      answer: String(info.response ?? ''),
      messageId: typeof info.messageId === 'string' ? info.messageId : null,
    };
  };
  return {
    send: (m) => sendRendered(m.to, renderMail(m, mail.publicUrl)),
    sendDigest: (d) => sendRendered(d.to, renderDigest(d, mail.publicUrl)),
    close: () => transport.close(),
  };
}
