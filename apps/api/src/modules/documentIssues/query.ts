/**
 * Reading questions: the supplier's list (its own supplier's questions), the
 * answerers' list (assigned to me, the pool, all submitted), and one question with its thread.
 * Overdue is derived, never stored: past the due day (UTC+8) and still 待分派 or 处理中.
 */
import type { IssueAction, IssueDetail, IssueNoticeRef, IssueRow, IssueStatus, IssueScope } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readJsonRows } from '../../db/rows.ts';
import { cstDay } from '../../lib/dates.ts';
import {
  dayRangeSql,
  equalsSql,
  keywordSql,
  listJsonPage,
  orderBySql,
  whereSql,
  type CappedTotal,
  type Condition,
  type ListParts,
} from '../../lib/list.ts';
import { notFound } from '../../plugins/errors.ts';
import { issueAttachments } from './attachments.ts';

export const ISSUE_NOT_FOUND = '问题不存在';

/** The user type that answers questions. */
export const ANSWERER_TYPE = 5;
/** The thread messages whose text the server writes naming answerers (routing, taking, assigning). */
const NAMING_ACTIONS = new Set(['ROUTE', 'ASSIGN']);

const overdueSql = (now: Date) =>
  Prisma.sql`(i.status IN ('PENDING', 'PROCESSING') AND i.due_date < ${cstDay(now)}::date)`;

/** The answerer reading holds the question: what their page needs when 回复人 (and so the assignee's id) is hidden for them. */
const assignedToMeSql = (reader: Reader) =>
  'handlerId' in reader ? Prisma.sql`COALESCE(i.assignee_id = ${reader.handlerId}, false)` : Prisma.sql`false`;

const issueSelect = (
  now: Date,
  reader: Reader,
) => Prisma.sql`i.id, i.number, i.supplier_code AS "supplierCode", i.supplier_name AS "supplierName", i.file_id AS "fileId",
  i.standard_code AS "standardCode", f.name AS "fileTitle", f.file_name AS "fileName", f.file_type AS "fileType", i.version, f.status AS "fileStatus",
  i.material_code AS "materialCode", m.name AS "materialName", i.product_line_code AS "productLineCode", pl.name AS "productLineName",
  i.problem_type_id AS "problemTypeId", t.name AS "problemTypeName", t.role, i.title, i.description, i.purchaser, i.status,
  i.asked_by_account AS "askedByAccount", i.asked_by_name AS "askedByName", i.assignee_id AS "assigneeId", i.assignee_name AS "assigneeName",
  to_char(i.due_date, 'YYYY-MM-DD') AS "dueDate", ${overdueSql(now)} AS overdue, i.submitted_at AS "submittedAt", i.answered_at AS "answeredAt",
  i.closed_at AS "closedAt", i.created_at AS "createdAt", i.updated_at AS "updatedAt", ${assignedToMeSql(reader)} AS "assignedToMe",
  (SELECT count(*)::int FROM document_issue_attachment a WHERE a.issue_id = i.id) AS "attachmentCount"`;

/**
 * The question's lookups. Each is a foreign key of a NOT NULL column (prisma/schema.prisma), so
 * a LEFT JOIN finds exactly the row an inner join would. The lists join them to the page's rows
 * only (ListParts.lookups: no filter or sort of the lists uses them), so a list's count walks the
 * questions alone and its page sorts the questions before any lookup. Postgres's CPU per list
 * call, same answers (the history of docs/benchmarks.md): with the lookups joined to every
 * matching question first, a supplier's 78 questions took 4.7–4.9 ms and the answerers' 20,000
 * 6.5–7.2 ms; with the page chosen first, 1.07–1.13 and 1.50–1.67 ms.
 */
const issueLookups = Prisma.sql`LEFT JOIN standard_file f ON f.id = i.file_id LEFT JOIN material m ON m.code = i.material_code
  LEFT JOIN product_line pl ON pl.code = i.product_line_code LEFT JOIN problem_type t ON t.id = i.problem_type_id`;
const issueFrom = Prisma.sql`document_issue i ${issueLookups}`;

const ISSUE_SORT = {
  number: 'i.number',
  createdAt: 'i.created_at',
  submittedAt: 'i.submitted_at',
  dueDate: 'i.due_date',
  status: 'i.status',
} as const;

export interface IssueFilters {
  status?: IssueStatus;
  keyword?: string;
  materialCode?: string;
  problemTypeId?: number;
  dateFrom?: string;
  dateTo?: string;
  overdueOnly?: '1';
  supplierCode?: string;
  scope?: IssueScope;
}
type IssueQuery = IssueFilters & {
  page: number;
  results: number;
  sortField?: keyof typeof ISSUE_SORT;
  sortOrder?: 'ascend' | 'descend';
};

/** Who is reading: a supplier (its own questions, drafts included) or an answerer (submitted ones). */
export type Reader = { supplierCode: string } | { handlerId: number };

function readerSql(reader: Reader): Condition {
  return 'supplierCode' in reader
    ? Prisma.sql`i.supplier_code = ${reader.supplierCode}`
    : Prisma.sql`i.status <> 'DRAFT'`;
}

function scopeSql(reader: Reader, scope: IssueScope | undefined): Condition {
  if (!('handlerId' in reader) || !scope || scope === 'ALL') return null;
  return scope === 'MINE'
    ? Prisma.sql`i.assignee_id = ${reader.handlerId} AND i.status IN ('PROCESSING', 'ANSWERED')`
    : Prisma.sql`i.status = 'PENDING'`;
}

/**
 * Whether an answerer may open this drawing version: a question they may take up is about it —
 * one of 分派给我 or one waiting in 待分派 (the same scopes their lists show). Runs on the
 * transaction client that writes the access log row.
 */
export async function answererSeesFile(
  q: Db | Prisma.TransactionClient,
  handlerId: number,
  fileId: number,
): Promise<boolean> {
  const reader: Reader = { handlerId };
  const [mine, pool] = [scopeSql(reader, 'MINE'), scopeSql(reader, 'POOL')] as Prisma.Sql[];
  const rows = await q.$queryRaw<unknown[]>`SELECT 1 FROM document_issue i
    WHERE i.file_id = ${fileId} AND ${readerSql(reader) as Prisma.Sql} AND ((${mine}) OR (${pool})) LIMIT 1`;
  return rows.length > 0;
}

/**
 * The prepared family a questions list statement belongs to (db/rows.ts familyName), if one
 * generic plan fits all its values:
 *  - a supplier's own, without a keyword: every variant reads the supplier's rows by its index
 *    and sorts them, whichever the supplier and filters;
 *  - the answerers' list with no filter but its scope (分派给我 / 待分派 / 全部, the landing page
 *    of types 5 and 6): newest first by the primary key, or one handler's questions by theirs.
 * Not with a keyword (how many rows the trigram index finds depends on the word, which only a
 * plan made for it knows), nor the answerers' filtered lists, whose filters pick different
 * indexes by their values.
 */
function issueFamily(reader: Reader, q: IssueQuery): string | undefined {
  if (q.keyword) return undefined;
  if (!('handlerId' in reader)) return 'esm_issue_mine';
  const filtered =
    q.status || q.materialCode || q.problemTypeId || q.supplierCode || q.overdueOnly || q.dateFrom || q.dateTo;
  return filtered ? undefined : 'esm_issue_desk';
}

export async function pageIssues(
  db: Db,
  reader: Reader,
  q: IssueQuery,
  now = new Date(),
): Promise<{ rows: IssueRow[] } & CappedTotal> {
  return listJsonPage<IssueRow>(db, q, issueListParts(reader, q, now));
}

/** The questions list's statement for this reader (the benchmark sends the same through `pg`). */
export function issueListParts(reader: Reader, q: IssueQuery, now: Date): ListParts {
  return {
    select: issueSelect(now, reader),
    from: Prisma.sql`document_issue i`,
    lookups: { alias: 'i', joins: issueLookups },
    where: whereSql([
      readerSql(reader),
      scopeSql(reader, q.scope),
      equalsSql('i.status', q.status),
      keywordSql(['i.number', 'i.title'], q.keyword),
      equalsSql('i.material_code', q.materialCode),
      equalsSql('i.problem_type_id', q.problemTypeId),
      'handlerId' in reader && equalsSql('i.supplier_code', q.supplierCode),
      q.overdueOnly && overdueSql(now),
      ...dayRangeSql('i.created_at', q.dateFrom, q.dateTo),
    ]),
    orderBy: orderBySql(
      ISSUE_SORT,
      q,
      'i.id',
      `${'handlerId' in reader ? '' : "(i.status = 'ANSWERED') DESC, "}i.id DESC`,
    ),
    prepare: issueFamily(reader, q),
  };
}

/** The question as this reader may see it, or null (not theirs, a draft for an answerer, or none). */
export async function findIssueRow(db: Db, reader: Reader, id: number, now = new Date()): Promise<IssueRow | null> {
  const [row] = await readJsonRows<IssueRow>(
    db,
    Prisma.sql`SELECT ${issueSelect(now, reader)} FROM ${issueFrom} ${whereSql([Prisma.sql`i.id = ${id}`, readerSql(reader)])}`,
  );
  return row ?? null;
}

/** Published (or closed) change notices whose old version is `fileId`: what superseded the version asked about. */
export async function supersedingNotices(db: Db | Prisma.TransactionClient, fileId: number): Promise<IssueNoticeRef[]> {
  const rows = await db.$queryRaw<
    { id: number; number: string; title: string; newVersion: string; publishedAt: Date | null }[]
  >`
    SELECT n.id, n.number, n.title, nf.version AS "newVersion", n.published_at AS "publishedAt"
    FROM notice_change c JOIN change_notice n ON n.id = c.notice_id JOIN standard_file nf ON nf.id = c.new_file_id
    WHERE c.old_file_id = ${fileId} AND n.status IN ('PUBLISHED', 'CLOSED') ORDER BY n.published_at, n.id`;
  return rows.map((r) => ({ ...r, publishedAt: r.publishedAt?.toISOString() ?? null }));
}

export async function issueDetail(db: Db, reader: Reader, id: number, now = new Date()): Promise<IssueDetail> {
  const row = await findIssueRow(db, reader, id, now);
  if (!row) throw notFound(ISSUE_NOT_FOUND);
  const [messages, attachments, supersededBy, latest, answerers] = await Promise.all([
    db.documentIssueMessage.findMany({ where: { issueId: id }, orderBy: { id: 'asc' } }),
    issueAttachments(db, id),
    supersedingNotices(db, row.fileId),
    db.standardFile.findFirst({
      where: { standardCode: row.standardCode, status: 'EFFECTIVE' },
      select: { id: true, version: true },
    }),
    // whom an assignment's text names (disabled answerers too: they may have been assigned once)
    db.user.findMany({ where: { type: ANSWERER_TYPE }, select: { name: true } }),
  ]);
  const mentionsOf = (action: string, text: string | null) =>
    text && NAMING_ACTIONS.has(action)
      ? [...new Set(answerers.map((a) => a.name))].filter((n) => n && text.includes(n))
      : undefined;
  const noticeIds = [...new Set(messages.map((m) => m.noticeId).filter((n): n is number => n !== null))];
  const linked = noticeIds.length
    ? await db.changeNotice.findMany({
        where: { id: { in: noticeIds } },
        select: { id: true, number: true, title: true, publishedAt: true },
      })
    : [];
  const noticeOf = (nid: number | null): IssueNoticeRef | null => {
    const n = linked.find((x) => x.id === nid);
    if (!n) return null;
    return {
      id: n.id,
      number: n.number,
      title: n.title,
      newVersion: supersededBy.find((s) => s.id === n.id)?.newVersion ?? '',
      publishedAt: n.publishedAt?.toISOString() ?? null,
    };
  };
  return {
    ...row,
    attachments: attachments.filter((a) => a.messageId === null),
    latestVersion: latest && latest.id !== row.fileId ? latest.version : null,
    supersededBy,
    messages: messages.map((m) => ({
      id: m.id,
      action: m.action as IssueAction,
      fromStatus: (m.fromStatus as IssueStatus | null) ?? null,
      toStatus: m.toStatus as IssueStatus,
      userAccount: m.userAccount,
      userName: m.userName,
      userType: m.userType,
      text: m.text,
      mentions: mentionsOf(m.action, m.text),
      notice: noticeOf(m.noticeId),
      createdAt: m.createdAt.toISOString(),
      attachments: attachments.filter((a) => a.messageId === m.id),
    })),
  };
}
