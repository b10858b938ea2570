/**
 * Absolute URLs of API resources and of their pages in the app, all under the configured public
 * URL so links keep working behind a proxy or a custom domain.
 */
export class Urls {
  constructor(readonly base: string) {}

  /** `/v1/...` resource in the API. */
  api(path: string): string {
    return `${this.base}/v1${path}`;
  }

  /** A page of the Quire app. */
  app(path: string): string {
    return `${this.base}/app${path}`;
  }

  user(id: string) {
    return { location: this.api(`/users/${id}`) };
  }

  organization(id: string) {
    return { location: this.api(`/orgs/${id}`), app: this.app(`/o/${id}`) };
  }

  collection(id: string) {
    return { location: this.api(`/collections/${id}`), app: this.app(`/c/${id}`) };
  }

  space(id: string) {
    return { location: this.api(`/spaces/${id}`), app: this.app(`/s/${id}`) };
  }
}
