/** The roles of DECISIONS §2, as the API numbers them (GET /auth/me `item.role`). */
export const roles = { subscriber: 10, contributor: 20, author: 30, editor: 40, admin: 50 } as const;

export type Role = (typeof roles)[keyof typeof roles];

/** Every role, lowest first. */
export const allRoles: readonly Role[] = Object.values(roles);

/** What the panel offers a role; the server still refuses whatever is sent beyond it. */
export function canWriteContent(role: number): boolean {
  return role >= roles.contributor;
}

/**
 * Publishing, scheduling and taking entries off the site: Authors and up. A Contributor writes
 * drafts for someone else to publish (issue 31), so the editor offers them no publish button.
 */
export function canPublish(role: number): boolean {
  return role >= roles.author;
}

/** The site's structure (terms, menus): Editors and up, as WordPress gives them to those who run the site's content. */
export function canShapeSite(role: number): boolean {
  return role >= roles.editor;
}

/** The site's own configuration (settings, and part 2's people, plugins and schema): admins only. */
export function isAdmin(role: number): boolean {
  return role >= roles.admin;
}
