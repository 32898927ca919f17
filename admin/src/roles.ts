/** The roles of DECISIONS §2, as the API numbers them (GET /auth/me `item.role`). */
export const roles = { subscriber: 10, contributor: 20, author: 30, editor: 40, admin: 50 } as const;

/** What the panel offers a role; the server still refuses whatever is sent beyond it. */
export function canWriteContent(role: number): boolean {
  return role >= roles.contributor;
}

/** Publishing, unpublishing and scheduling are for Authors and up: a Contributor drafts (src/content/access.ts). */
export function canPublish(role: number): boolean {
  return role >= roles.author;
}
