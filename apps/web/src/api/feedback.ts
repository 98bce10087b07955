/**
 * antd's message and modal bound to the app's theme and locale: <FeedbackBridge/> (inside
 * antd's <App>) hands them over, so code outside React (the API client) can toast too.
 */
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

export const feedback: { message?: MessageInstance; modal?: ModalHookAPI } = {};
