import type { FormInstance } from 'antd';
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

/**
 * The form's values when every field is valid, else null — antd then shows each field's message.
 * (validateFields rejects with the field errors; awaited bare in a dialog's onOk, that rejection
 * went nowhere and surfaced as an uncaught "Object" page error.)
 */
export async function validValues<T>(
  form: FormInstance<T>,
  names?: Parameters<FormInstance<T>['validateFields']>[0],
): Promise<T | null> {
  try {
    return (await (names ? form.validateFields(names) : form.validateFields())) as T;
  } catch {
    return null;
  }
}
