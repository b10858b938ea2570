import type { Actor } from '../../auth/actor.js';
import { TEMPLATES } from '../../content/templates.js';
import { invalidField } from '../../errors.js';
import type { ContentChange } from '../change-requests/content-schemas.js';
import type { ContentWriteService } from '../change-requests/content-writes.js';
import type { ChangeRequestsService } from '../change-requests/service.js';

/** The services templates call. */
export interface TemplatesNeeds {
  changeRequests: Pick<ChangeRequestsService, 'create'>;
  contentWrites: Pick<ContentWriteService, 'apply'>;
}

/** Applying a built-in template: its pages go into a change request (the one named, or a new one). */
export class TemplatesService {
  constructor(private readonly services: TemplatesNeeds) {}

  async apply(
    actor: Actor,
    spaceId: string,
    templateId: string,
    changeRequestId: string | undefined,
  ): Promise<string> {
    const template = TEMPLATES.find((t) => t.id === templateId);
    if (!template) {
      throw invalidField(
        'body.id',
        `"${templateId}" is not a template; use one of: ${TEMPLATES.map((t) => t.id).join(', ')}`,
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
}
