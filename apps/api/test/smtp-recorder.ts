/**
 * A real SMTP server in the test process (npm smtp-server on 127.0.0.1, a free port) that records
 * every mail it accepts, parsed just enough to assert on: envelope recipients, headers and body.
 * `refuse(n)` makes it answer the next n messages with a temporary failure (451) before accepting.
 */
import { SMTPServer } from 'smtp-server';
import { freePort } from './free-port.ts';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The text/plain part, decoded. */
  text: string;
  /** The text/html part, decoded. */
  html: string;
}

const qp = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** The decoded body of the first part of this content type. */
function part(raw: string, type: string): string {
  for (const p of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const [head = '', ...rest] = p.split(/\r?\n\r?\n/);
    if (!new RegExp(`content-type:\\s*${type}`, 'i').test(head)) continue;
    const body = rest.join('\r\n\r\n').replace(/\r?\n--[^\r\n]*--\s*$/, '');
    if (/content-transfer-encoding:\s*base64/i.test(head))
      return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) return qp(body);
    return body;
  }
  return '';
}

/** A header's value, RFC 2047 encoded words (=?UTF-8?B?…?=) decoded. */
function decodeHeader(raw: string, name: string): string {
  const m = new RegExp(`^${name}:((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw);
  if (!m) return '';
  return m[1]!
    .replace(/\r?\n[ \t]/g, ' ')
    .trim()
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
      enc.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** `onMail`: called with each mail accepted (the e2e server writes them where a journey reads them). */
export async function smtpRecorder(onMail?: (m: ReceivedMail) => void) {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  let refusedCount = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals--;
          refusedCount++;
          const err = Object.assign(new Error('4.3.0 邮件服务器暂时无法接收，请稍后重试'), { responseCode: 451 });
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = {
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: decodeHeader(raw, 'Subject'),
          text: part(raw, 'text/plain'),
          html: part(raw, 'text/html'),
        };
        received.push(mail);
        onMail?.(mail);
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(n: number) {
      refusals = n;
    },
    refused: () => refusedCount,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
