import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { TEMPLATES, type TemplatePage } from '../../content/templates.js';
import { invalidField } from '../../errors.js';
import { referencePageMarkdown, referencePages } from '../../openapi/reference-pages.js';
import type { ContentChange } from '../change-requests/content-schemas.js';
import type { ContentWriteService } from '../change-requests/content-writes.js';
import type { ChangeRequestsService } from '../change-requests/service.js';
import type { OpenApiService } from '../openapi/service.js';

/** The services templates call. */
export interface TemplatesNeeds {
  authz: Pick<Authorizer, 'space'>;
  changeRequests: Pick<ChangeRequestsService, 'create'>;
  contentWrites: Pick<ContentWriteService, 'apply'>;
  openapi: Pick<OpenApiService, 'latestDocument'>;
}

/** `params` of applyTemplateToSpace: content references by name (`contentRefs.spec` for `api-reference`). */
export interface TemplateParams {
  contentRefs?: Record<string, unknown>;
}

/** Made from a specification, not from fixed pages: one page per tag, and the models. */
const API_REFERENCE = { id: 'api-reference', title: 'API reference' };

/** Applying a built-in template: its pages go into a change request (the one named, or a new one). */
export class TemplatesService {
  constructor(private readonly services: TemplatesNeeds) {}

  async apply(
    actor: Actor,
    spaceId: string,
    templateId: string,
    params: TemplateParams | undefined,
    changeRequestId: string | undefined,
  ): Promise<string> {
    const template =
      templateId === API_REFERENCE.id
        ? { ...API_REFERENCE, pages: await this.referencePages(actor, spaceId, params) }
        : TEMPLATES.find((t) => t.id === templateId);
    if (!template) {
      throw invalidField(
        'body.id',
        `"${templateId}" is not a template; use one of: ${[...TEMPLATES.map((t) => t.id), API_REFERENCE.id].join(', ')}`,
      );
    }
    const crId =
      changeRequestId ??
      (
        await this.services.changeRequests.create(actor, spaceId, {
          subject: `Start from the ${template.title} template`,
        })
      ).row.id;
    const changes: ContentChange[] = template.pages.map((page) => ({
      operation: 'insert_page',
      ref: page.ref,
      title: page.title,
      ...(page.parent ? { into: page.parent } : {}),
      document: { markdown: page.markdown },
    }));
    await this.services.contentWrites.apply(actor, spaceId, crId, changes);
    return crId;
  }

  /** The pages of an API reference from the space's organization's specification `contentRefs.spec`. */
  private async referencePages(
    actor: Actor,
    spaceId: string,
    params: TemplateParams | undefined,
  ): Promise<TemplatePage[]> {
    // Permission first: a caller who may not propose changes learns nothing about the specs.
    const { space } = await this.services.authz.space(actor, spaceId, 'propose');
    const ref = params?.contentRefs?.spec as { kind?: unknown; spec?: unknown } | undefined;
    if (ref?.kind !== 'openapi' || typeof ref.spec !== 'string' || ref.spec === '')
      throw invalidField(
        'body.params.contentRefs.spec',
        'the api-reference template needs {"kind":"openapi","spec":"<slug>"}',
      );
    const document = await this.services.openapi.latestDocument(space.org_id, ref.spec);
    if (document === undefined)
      throw invalidField(
        'body.params.contentRefs.spec',
        `the organization has no processed OpenAPI specification "${ref.spec.slice(0, 100)}"`,
      );
    const pages = referencePages(document, { models: true });
    if (pages.length === 0)
      throw invalidField('body.params.contentRefs.spec', `the specification "${ref.spec}" has no operations`);
    return pages.map((page) => ({
      ref: `api-${page.slug}`,
      title: page.title,
      markdown: referencePageMarkdown(ref.spec as string, page),
    }));
  }
}
