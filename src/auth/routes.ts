import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute } from '../http/route.ts';
import { createToken, getCurrentUser, listTokens, revokeToken } from './operations.ts';
import { CreateTokenBody, CreateTokenResponse, ListTokensQuery, MeResponse, TokenIdParams, TokenListResponse } from './schemas.ts';

export const authRoutes = [
  defineRoute({ method: 'get', path: '/auth/me', tag: 'Account', summary: 'The current user and the scopes of this credential', operation: getCurrentUser, response: MeResponse }),
  defineRoute({
    method: 'post',
    path: '/admin/tokens',
    tag: 'Tokens',
    summary: 'Create a personal access token (the secret is shown only in this response)',
    operation: createToken,
    body: CreateTokenBody,
    response: CreateTokenResponse,
    status: 201,
  }),
  defineRoute({ method: 'get', path: '/admin/tokens', tag: 'Tokens', summary: 'List personal access tokens', operation: listTokens, query: ListTokensQuery, response: TokenListResponse }),
  defineRoute({
    method: 'delete',
    path: '/admin/tokens/:id',
    tag: 'Tokens',
    summary: 'Revoke a personal access token',
    operation: revokeToken,
    params: TokenIdParams,
    response: DeletedResponse,
  }),
];
