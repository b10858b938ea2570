/** Who makes a request: the user behind the bearer token. */
export interface Actor {
  userId: string;
  tokenId: string;
  email: string;
}

/** The domain part of an email address, lower-cased. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
