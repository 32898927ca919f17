import { defineRoute } from '../http/route.ts';
import { disableUser, enableUser, getUser, listUsers, updateUser } from './operations.ts';
import { ListUsersQuery, UpdateUserBody, UserIdParams, UserItemResponse, UserListResponse } from './schemas.ts';

const tag = 'Users';

export const userRoutes = [
  defineRoute({ method: 'get', path: '/admin/users', tag, summary: 'List users', operation: listUsers, query: ListUsersQuery, response: UserListResponse }),
  defineRoute({ method: 'get', path: '/admin/users/:id', tag, summary: 'Get a user', operation: getUser, params: UserIdParams, response: UserItemResponse }),
  defineRoute({
    method: 'patch',
    path: '/admin/users/:id',
    tag,
    summary: "Change a user's name or role",
    operation: updateUser,
    params: UserIdParams,
    body: UpdateUserBody,
    response: UserItemResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/admin/users/:id/enable',
    tag,
    summary: 'Enable a user',
    operation: enableUser,
    params: UserIdParams,
    response: UserItemResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/admin/users/:id/disable',
    tag,
    summary: 'Disable a user; their credentials stop working on their next request',
    operation: disableUser,
    params: UserIdParams,
    response: UserItemResponse,
  }),
];
