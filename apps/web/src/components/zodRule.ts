import type { Rule } from 'antd/es/form';
import type { z } from 'zod';

/** An antd form rule from a contracts schema: the form says exactly what the server would. */
export function zodRule(schema: z.ZodType): Rule {
  return {
    validator: async (_rule, value) => {
      const r = schema.safeParse(value);
      if (!r.success) throw new Error(r.error.issues[0]?.message ?? '输入有误');
    },
  };
}
