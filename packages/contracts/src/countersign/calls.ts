/**
 * The countersign calls, manufacturer side then supplier side, and the button behind each action a
 * list offers. Call names are the legacy portal's where it has one; the draft, issue, internal sign,
 * cancel and sheet calls are ours (the legacy portal has none).
 */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from '../codes.ts';
import { endpoint } from '../endpoint.ts';
import { ZCappedPage, ZEnvelope } from '../envelope.ts';
import { PAGES } from '../pages.ts';
import {
  ZCountersignDraftSchema,
  ZCountersignerOption,
  ZCountersignerRequestSchema,
  ZCountersignFile,
  ZCountersignFileRequestSchema,
  ZCountersignUpdateSchema,
} from './content.ts';
import {
  COUNTERSIGN_COLUMNS,
  ZCountersignCancelSchema,
  ZCountersignDetail,
  ZCountersignIdRequestSchema,
  ZCountersignPageRequestSchema,
  ZCountersignRow,
  ZSupplierCountersignPageRequestSchema,
} from './lists.ts';
import { ZCountersignSubmitResult, ZCountersignSubmitSchema } from './signatures.ts';
import type { CountersignAction } from './state.ts';

const tag = 'countersign';
const tagSupplier = 'countersign (supplier)';
const admin = DRAWING_ADMIN_TYPES;
const supplier = SUPPLIER_TYPES;
const detail = ZEnvelope(ZCountersignDetail);

const csButton = PAGES.countersignList.buttons;

export const countersignApi = {
  page: endpoint({
    path: 'haier/countersign/getCountersignHaierPager',
    access: admin,
    tag,
    summary: '会签单分页（按供应商、状态、截止日期、会签人筛选）',
    body: ZCountersignPageRequestSchema,
    response: ZCappedPage(ZCountersignRow),
    columns: COUNTERSIGN_COLUMNS,
  }),
  detail: endpoint({
    path: 'haier/countersign/getCountersignHaierInfo',
    access: admin,
    tag,
    summary: '会签单详情：内容、文件、各轮签署记录与可做的操作',
    body: ZCountersignIdRequestSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  signers: endpoint({
    path: 'haier/countersign/selectSigners',
    access: admin,
    tag,
    summary: '可选的我方会签人（内部用户）',
    body: ZCountersignerRequestSchema,
    response: ZEnvelope(z.array(ZCountersignerOption)),
  }),
  files: endpoint({
    path: 'haier/countersign/selectFiles',
    access: admin,
    tag,
    summary: '可选的文件版本（含 sha256）',
    body: ZCountersignFileRequestSchema,
    response: ZEnvelope(z.array(ZCountersignFile)),
  }),
  create: endpoint({
    path: 'haier/countersign/create',
    access: admin,
    tag,
    button: csButton.create,
    summary: '新建会签单草稿',
    body: ZCountersignDraftSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  update: endpoint({
    path: 'haier/countersign/update',
    access: admin,
    tag,
    button: csButton.edit,
    summary: '编辑会签单（草稿，或已退回后下一轮的内容）',
    body: ZCountersignUpdateSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  issue: endpoint({
    path: 'haier/countersign/issue',
    access: admin,
    tag,
    button: csButton.issue,
    summary: '下发给供应商会签（已退回的开始新一轮）',
    body: ZCountersignIdRequestSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  sign: endpoint({
    path: 'haier/countersign/sign',
    access: admin,
    tag,
    button: csButton.sign,
    summary: '我方会签：同意、有条件同意或退回（按顺序，轮到本人时）',
    body: ZCountersignSubmitSchema,
    response: ZEnvelope(ZCountersignSubmitResult),
  }),
  cancel: endpoint({
    path: 'haier/countersign/cancel',
    access: admin,
    tag,
    button: csButton.cancel,
    summary: '取消草稿或已退回的会签单',
    body: ZCountersignCancelSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  sheet: endpoint({
    path: 'haier/countersign/downloadSheet',
    access: admin,
    tag,
    kind: 'bytes',
    button: csButton.download,
    summary: '下载签核单 PDF（已完成的会签单，带本人水印，记入下载日志）',
    body: ZCountersignIdRequestSchema,
  }),

  // supplier side: every call runs inside the caller's own supplier's scope
  supplierPage: endpoint({
    path: 'supplier/countersign/getCountersignPager',
    access: supplier,
    tag: tagSupplier,
    summary: '本公司的会签单分页',
    body: ZSupplierCountersignPageRequestSchema,
    response: ZCappedPage(ZCountersignRow),
  }),
  supplierDetail: endpoint({
    path: 'supplier/countersign/getCountersignInfo',
    access: supplier,
    tag: tagSupplier,
    summary: '本公司的会签单详情',
    body: ZCountersignIdRequestSchema,
    response: detail,
  }),
  submit: endpoint({
    path: 'supplier/countersign/submitCountersign',
    access: supplier,
    tag: tagSupplier,
    summary: '供应商会签：同意、有条件同意或退回',
    body: ZCountersignSubmitSchema,
    response: ZEnvelope(ZCountersignSubmitResult),
  }),
  supplierSheet: endpoint({
    path: 'supplier/countersign/downloadSheet',
    access: supplier,
    tag: tagSupplier,
    kind: 'bytes',
    summary: '下载签核单 PDF（带本人水印，记入下载日志）',
    body: ZCountersignIdRequestSchema,
  }),
} as const;

/**
 * The button behind each action an internal user may be offered on a list: an action
 * whose button the caller's type lacks is left out of `actions`, as its route refuses it.
 */
export const COUNTERSIGN_ACTION_BUTTONS = {
  edit: countersignApi.update.button,
  issue: countersignApi.issue.button,
  cancel: countersignApi.cancel.button,
  sign: countersignApi.sign.button,
  download: countersignApi.sheet.button,
} as const satisfies Record<CountersignAction, unknown>;
