/**
 * The support chat: the person's calls, and what the back office's side shares (ops/support.ts).
 * The public face of this module: other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export {
  type ConversationRow,
  closeConversation,
  conversationById,
  operatorMessages,
  operatorReply,
  SUPPORT_CHANNEL,
  type SupportMessageView,
  supportMessages,
} from './service.ts';

export const routes = modulePlugin('support', register);
