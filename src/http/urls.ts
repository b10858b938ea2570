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

  changeRequest(spaceId: string, id: string) {
    return {
      location: this.api(`/spaces/${spaceId}/change-requests/${id}`),
      app: this.app(`/s/${spaceId}/~/changes/${id}`),
    };
  }

  /** Where a stored file is downloaded: by its content hash, which only its readers know. */
  file(hash: string, name: string) {
    return `${this.base}/files/${hash}/${encodeURIComponent(name)}`;
  }

  space(id: string) {
    return { location: this.api(`/spaces/${id}`), app: this.app(`/s/${id}`) };
  }
}
