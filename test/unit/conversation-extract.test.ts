import { describe, expect, it } from 'vitest';
import type { ConversationInput } from '../../src/areas/conversations/schemas.js';
import { extractIssue, guessLanguage, MAX_SUMMARY, MAX_TITLE } from '../../src/conversations/index.js';
import { issueTerms } from '../../src/conversations/terms.js';
import { corpus } from '../fixtures/conversations/generate.js';

const user = (body: string) => ({ type: 'message' as const, role: 'user' as const, body });
const assistant = (body: string) => ({ type: 'message' as const, role: 'assistant' as const, body });
const conversation = (parts: ConversationInput['parts'], extra: Partial<ConversationInput> = {}) => ({
  id: 'c1',
  parts,
  ...extra,
});

describe('extracting the issue of a conversation', () => {
  it('titles it with the subject when there is one, else the first sentence of the first user message', () => {
    const parts = [
      assistant('How can we help?'),
      user('The PDF export cuts off wide tables. It started last week!'),
      user('Any update?'),
    ];
    expect(extractIssue(conversation(parts, { subject: '  PDF export broken ' }))).toMatchObject({
      title: 'PDF export broken',
    });
    const issue = extractIssue(conversation(parts))!;
    expect(issue.title).toBe('The PDF export cuts off wide tables.');
    // The summary is the user messages only, in order.
    expect(issue.summary).toBe('The PDF export cuts off wide tables. It started last week!\n\nAny update?');
  });

  it('ends a first sentence at a line break or a CJK full stop, not inside "v1.2"', () => {
    expect(extractIssue(conversation([user('Version v1.2 crashes on start\nmore text')]))!.title).toBe(
      'Version v1.2 crashes on start',
    );
    expect(
      extractIssue(conversation([user('パスワードリセットのメールが届きません。助けてください。')]))!.title,
    ).toBe('パスワードリセットのメールが届きません。');
  });

  it('passes over a first sentence that is only a greeting', () => {
    expect(
      extractIssue(conversation([user('Hi team!\nOur SSO login fails since this morning.')]))!.title,
    ).toBe('Our SSO login fails since this morning.');
    expect(extractIssue(conversation([user('Bonjour, merci !')]))!.title).toBe('Bonjour, merci !');
  });

  it('keeps a title within 120 characters, cut at a word boundary', () => {
    const long = `${'The installer crashes on Windows when '.repeat(5)}it starts.`;
    const title = extractIssue(conversation([user(long)]))!.title;
    expect(title.length).toBeLessThanOrEqual(MAX_TITLE);
    expect(title.endsWith('…')).toBe(true);
    expect(long.startsWith(title.slice(0, -1))).toBe(true);
    expect(long[title.length - 1]).toBe(' '); // the cut fell on a space
    // A subject is held to the same limit.
    const subject = 'word '.repeat(100);
    expect(extractIssue(conversation([user('x')], { subject }))!.title.length).toBeLessThanOrEqual(MAX_TITLE);
    // Text without spaces is cut anywhere, never inside a surrogate pair.
    const cjk = extractIssue(conversation([user('𠀋'.repeat(200))]))!.title;
    expect(cjk.length).toBeLessThanOrEqual(MAX_TITLE);
    expect(cjk).toBe(`${'𠀋'.repeat(59)}…`);
  });

  it('keeps a summary within 500 characters', () => {
    const parts = Array.from({ length: 30 }, (_, i) => user(`Message number ${i} about webhook retries.`));
    const summary = extractIssue(conversation(parts))!.summary;
    expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY);
    expect(summary.length).toBeGreaterThan(MAX_SUMMARY - 40);
    expect(summary.endsWith('…')).toBe(true);
  });

  it('finds no issue where no user wrote anything', () => {
    expect(extractIssue(conversation([]))).toBeUndefined();
    expect(
      extractIssue(conversation([assistant('Welcome aboard!')], { subject: 'Onboarding' })),
    ).toBeUndefined();
    expect(
      extractIssue(
        conversation([{ type: 'message', role: 'team-member', body: 'Escalated.' }, user('  \n ')]),
      ),
    ).toBeUndefined();
    // In the corpus: one issue per conversation with a user message, none for the assistant-only ones.
    const all = corpus();
    const withUser = all.filter((c) => c.input.parts.some((p) => p.role === 'user'));
    expect(all.length - withUser.length).toBe(11);
    expect(all.filter((c) => extractIssue(c.input)).length).toBe(withUser.length);
  });

  it('takes the declared language, else guesses it from the text', () => {
    const declared = conversation([user('Le mode sombre ne marche pas')], {
      metadata: { attributes: { locale: 'fr-FR' } },
    });
    expect(extractIssue(declared)!.language).toBe('fr');
    const unknown = conversation([user('Dark mode please')], {
      metadata: { attributes: { language: 'Klingon' } },
    });
    expect(extractIssue(unknown)!.language).toBe('en');
    expect(guessLanguage('Der Link zum Zurücksetzen des Passworts ist abgelaufen.')).toBe('de');
    expect(guessLanguage('El enlace para restablecer la contraseña ha caducado.')).toBe('es');
    expect(guessLanguage("Je ne reçois pas l'e-mail de réinitialisation.")).toBe('fr');
    expect(guessLanguage('SSOでログインできません。')).toBe('ja');
    expect(guessLanguage('导出PDF时出错。')).toBe('zh');
    expect(guessLanguage('PDF 429')).toBe('und');
  });
});

describe('terms of an issue', () => {
  it('drops stop words and greetings of every language, stems in the issue language', () => {
    expect(issueTerms("Hi team, I can't export my pages to PDF. Thanks!", 'en')).toEqual([
      'export',
      'page',
      'pdf',
    ]);
    expect(issueTerms('Bonjour, les exports en PDF échouent. Merci', 'fr')).toEqual([
      'export',
      'pdf',
      'echouent',
    ]);
    expect(issueTerms('Error 429 and 42', 'en')).toEqual(['error', '429']);
  });

  it('cuts Japanese into dictionary words and Chinese into bigrams, without particles', () => {
    expect(issueTerms('エディターにダークモードを追加してください。', 'ja')).toEqual([
      'エディター',
      'ダーク',
      'モード',
      '追加',
    ]);
    expect(issueTerms('我收不到重置密码的邮件。', 'zh')).toEqual([
      '收不',
      '不到',
      '到重',
      '重置',
      '置密',
      '密码',
      '邮件',
    ]);
  });
});
