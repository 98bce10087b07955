/**
 * Routing a submitted question: its problem type says which role answers (SQE or the
 * product line); the role table says who holds that role for the product line of the drawing's
 * material. Only enabled answerers (type 5) count. One → assigned; none or several → the pool.
 */
import { ISSUE_HANDLER_TYPES } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';

export interface Answerer {
  id: number;
  name: string;
}

export function answerersFor(tx: Prisma.TransactionClient, productLineCode: string, role: string): Promise<Answerer[]> {
  return tx.$queryRaw<Answerer[]>`SELECT u.id, u.name FROM sqegx_role r JOIN app_user u ON u.id = r.user_id
    WHERE r.product_line_code = ${productLineCode} AND r.role = ${role} AND u.enabled AND u.type IN (${Prisma.join([...ISSUE_HANDLER_TYPES])})
    ORDER BY u.id`;
}
