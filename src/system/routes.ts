import { z } from 'zod';
import { defineRoute } from '../http/route.ts';
import { checkHealth } from './operations.ts';

export const systemRoutes = [
  defineRoute({
    method: 'get',
    path: '/health',
    tag: 'System',
    summary: 'Health check for load balancers (503 when the database does not answer)',
    operation: checkHealth,
    response: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
  }),
];
