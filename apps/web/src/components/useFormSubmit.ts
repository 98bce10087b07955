/**
 * The submit of a form dialog, in one place: validate (antd shows each field's message) → run the
 * call → toast its text → on a refusal, the server's per-field messages on their fields and its
 * reason (or `failText`) as a toast. `busy` drives the button's spinner. `submit` resolves true
 * when the call succeeded, so the caller closes or resets only then.
 */
import { useCallback, useState } from 'react';
import { App, type FormInstance } from 'antd';
import { serverErrorText, showFieldErrors } from './serverErrors.ts';
import { validValues } from './zodRule.ts';

export interface FormSubmitOptions {
  /** The toast's text when the server gives no reason. */
  failText: string;
  /** Request field → form field, where they differ (e.g. attachmentIds → attachments). */
  rename?: Record<string, string>;
}

export function useFormSubmit<T>(form: FormInstance<T>, { failText, rename }: FormSubmitOptions) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const submit = useCallback(
    /** `action` performs the call with the valid values and resolves to the success toast's text. */
    async (action: (values: T) => Promise<string>): Promise<boolean> => {
      const values = await validValues(form);
      if (!values) return false;
      setBusy(true);
      try {
        message.success(await action(values));
        return true;
      } catch (e) {
        showFieldErrors(form, e, rename);
        message.error(serverErrorText(e, failText));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [form, message, failText, rename],
  );
  return { busy, submit };
}
