import { access, defineOperation } from '../core/operation.ts';
import { endSession } from './sessions.ts';

/**
 * Ends the caller's browser session. Any credential may call it (DECISIONS §2); with a token there is
 * no session to end, and the answer is the same, so a client need not know which it holds.
 */
export const logout = defineOperation({
  name: 'auth.logout',
  access: access.ownAccount,
  async run(ctx): Promise<{ success: true }> {
    const credential = ctx.actor?.credential;
    if (credential?.type === 'session') await endSession(ctx.db, credential.id);
    return { success: true };
  },
});
