import { z } from 'zod';

export const SetupStatusResponse = z.object({
  setupComplete: z.boolean().describe('Whether the first admin exists (setup page or `folio admin create`); the setup endpoints then refuse'),
  hasUsers: z.boolean(),
});
