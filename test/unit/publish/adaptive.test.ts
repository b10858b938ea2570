import { describe, expect, it } from 'vitest';
import { EMPTY_CONTENT, type PageNode, type RevisionContent } from '../../../src/content/tree.js';
import { VisitorView } from '../../../src/publish/adaptive.js';

/** Adaptive content for one visitor: conditions, page conditions, variables, markdown views. */

const page = (id: string, extra: Partial<PageNode> = {}): PageNode => ({
  id,
  type: 'document',
  parent: null,
  order: 0,
  title: id,
  slug: id,
  createdAt: '',
  updatedAt: '',
  ...extra,
});

const pro = page('pro', { condition: 'visitor.claims.unsigned.plan === "pro"' });
const child = page('child', { parent: 'pro' });
const withVars = page('vars', { fileHead: '---\nvars:\n  code: T-1\n---\n\n# Vars\n\n' });
const content: RevisionContent = {
  ...EMPTY_CONTENT,
  pages: new Map([pro, child, withVars].map((p) => [p.id, p])),
  variables: { REGION: 'eu' },
};

describe('a visitor view', () => {
  it('shows a page and the pages below it only when its condition holds', () => {
    const anonymous = new VisitorView({}, content);
    expect([anonymous.shows(pro), anonymous.shows(child), anonymous.shows(withVars)]).toEqual([
      false,
      false,
      true,
    ]);
    const member = new VisitorView({ unsigned: { plan: 'pro' } }, content);
    expect([member.shows(pro), member.shows(child)]).toEqual([true, true]);
  });

  it('reads space and page variables, and treats what does not parse as false', () => {
    const view = new VisitorView({}, content);
    expect(view.holds('space.vars.REGION === "eu"')).toBe(true);
    expect(view.holds('page.vars.code === "T-1"', withVars)).toBe(true);
    expect(view.text('page.vars.code + "!"', withVars)).toBe('T-1!');
    expect(view.holds('this is not ( an expression')).toBe(false);
  });

  it('gives markdown without the branches whose condition is false, keeping the rest as written', () => {
    const markdown = [
      'Intro with `{% if %}` in code.',
      '',
      '{% if visitor.claims.unsigned.plan === "pro" %}',
      'SECRET for pro.',
      '{% endif %}',
      '',
      '* Item',
      '',
      '  {% if !visitor.claims.unsigned.plan %}',
      '  Shown without a plan.',
      '  {% endif %}',
      '',
      '{% hint style="info" %}',
      '{% if nonsense ( %}',
      'Never shown.',
      '{% endif %}',
      '{% endhint %}',
      '',
    ].join('\n');
    const anonymous = new VisitorView({}, content).markdown(markdown, withVars);
    expect(anonymous).not.toContain('SECRET');
    expect(anonymous).not.toContain('Never shown');
    expect(anonymous).toContain('Shown without a plan.');
    expect(anonymous).toContain('Intro with `{% if %}` in code.');
    const member = new VisitorView({ unsigned: { plan: 'pro' } }, content).markdown(markdown, withVars);
    expect(member).toContain('SECRET for pro.');
    expect(member).not.toContain('Shown without a plan.');
    // Nothing conditional: the markdown comes back as it is.
    expect(new VisitorView({}, content).markdown('Plain *text*.\n', withVars)).toBe('Plain *text*.\n');
  });
});
