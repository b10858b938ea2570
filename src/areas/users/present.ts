import type { UsersTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { User } from './schemas.js';

export type UserRow = Pick<UsersTable, 'id' | 'email' | 'display_name' | 'photo_url'>;

/** `showEmail`: the caller shares an organization with the user, or is the user. */
export function presentUser(row: UserRow, urls: Urls, showEmail = true): User {
  const user: User = {
    object: 'user',
    id: row.id,
    displayName: row.display_name,
    urls: urls.user(row.id),
  };
  if (showEmail) user.email = row.email;
  if (row.photo_url) user.photoURL = row.photo_url;
  return user;
}
