import { fold } from '../search/analyzer.js';

/**
 * Stop words for clustering support conversations. Quire has no stop-word dependency (the search
 * index keeps every word: a phrase query needs them) and AREAS-2 §4.2's `stopword` package is not
 * installed, so these are compact hand-made lists: the function words of each language (after
 * the Snowball lists), plus the words every support message has whatever it is about (greetings,
 * thanks, "problem", "help"), which would otherwise pull unrelated issues together and make
 * greeting-only messages look alike.
 *
 * They are also how `language.ts` guesses a language, so each list keeps its most frequent
 * words. Compared folded (lower case, no accents), like terms are.
 */
const LISTS: Record<string, string> = {
  en: `a about above after again against all am an and any are aren as at be because been before being
    below between both but by can cannot could couldn did didn do does doesn doing don down during each
    few for from further had hadn has hasn have haven having he her here hers herself him himself his how
    i if in into is isn it its itself just let me more most my myself no nor not now of off on once only
    or other our ours ourselves out over own same she should so some such than that the their theirs
    them themselves then there these they this those through to too under until up very was wasn we were
    weren what when where which while who whom why will with won would you your yours yourself
    yourselves also get got getting still tried try trying want wanted need needs keep keeps
    like using use used every anyone someone something anything again since ve ll re d s t m
    hi hello hey dear team folks guys everyone morning afternoon evening thanks thank thx cheers
    regards best kind please pls help hope appreciate appreciated issue issues problem problems
    question questions support sorry ok okay great good yes know let us way`,
  fr: `au aux avec ce ces dans de des du elle en et eux il ils je la le les leur lui ma mais me même mes
    moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une
    vos votre vous c d j l à m n s t y été être avoir ai as avons avez ont eu suis es est sommes êtes sont
    était ceci cela ça cet cette ici ils leurs quand comment pourquoi donc alors aussi encore très plus
    tout tous toute toutes fait faire peut peux pouvez pourriez veux voudrais sans sous depuis chez
    bonjour bonsoir salut merci cordialement remercie svp plait aide aider problème question équipe
    madame monsieur bien nos vos leurs mon ma mes ton ta notre votre dois doit devons devez avons avez
    ont sommes êtes suis serait pourrait pouvons peuvent voulons voudrions même autre autres après avant
    chaque comme dès lors quel quelle quels quelles dessus dessous rien`,
  de: `aber alle allem allen aller alles als also am an ander andere anderen auch auf aus bei bin bis
    bist da damit dann das dass dein deine dem den der des dich die dies diese diesem diesen dieser doch
    dort du durch ein eine einem einen einer eines er es etwas euch euer für hab habe haben hat hatte
    hier hin ich ihm ihn ihr ihre im in ist jede jeder jetzt kann kein keine können könnte man mein
    meine mich mir mit muss nach nicht nichts noch nun nur ob oder ohne sehr sein seine sich sie sind
    so über um und uns unser unter vom von vor war waren warum was weil wenn werden wie wieder will wir
    wird wo zu zum zur leider bitte danke vielen dank hallo guten tag grüße gruß freundlichen liebe
    team hilfe problem frage immer schon gibt geht ja unsere unserer unseres unserem unseren eure
    euren meinen meinem meiner meines deinen deinem deiner ihren ihrem ihrer ihres seinen seinem seiner
    seines einen einem einer eines diesen dieses derselbe dieselbe dasselbe könnten konnte konnten
    würde würden möchte möchten sollte sollten müssen musste wurde wurden worden hatten habt seid
    viele vielen viel mehr wenig wenige wieder bereits sofort beim zum zur ins vom am dass`,
  es: `a al algo algunos ante antes como con contra cual cuando de del desde donde durante e el él ella
    ellos en entre era es esa ese eso esta está están estar este esto estos fue ha había han hasta hay
    la las le les lo los me mi mis mucho muy más mí nada ni no nos nosotros o os otra otro para pero
    poco por porque que qué quien se sea ser si sí sin sobre son su sus también te tengo tiene tienen
    todo todos tu tus un una uno unos y ya yo puedo puede podría quiero hola buenos buenas días tardes
    gracias saludos ayuda ayudar problema pregunta equipo favor sigue nuestro nuestra nuestros nuestras
    vuestro vuestra mío mía tuyo suyo suya podemos pueden podrían podría necesito necesitamos hemos he
    has han hay estoy estamos están estaba cada vez veces cuántas cuántos cuál cuáles otra otras otros
    después antes ya siempre nunca tan tanto unas`,
  // Chinese words are written together: these are bigrams the analyzer cuts them into.
  zh: `你好 您好 谢谢 感谢 请问 可以 一个 没有 什么 怎么 就是 但是 因为 所以 如果 还是 已经 现在 问题
    帮助 一下 时候 无法 不能 一直`,
};

const SETS = new Map(
  Object.entries(LISTS).map(([language, words]) => [
    language,
    new Set(words.split(/\s+/).filter(Boolean).map(fold)),
  ]),
);

/** Every language's stop words together, for text whose language is unknown or mixed. */
const ALL = new Set([...SETS.values()].flatMap((set) => [...set]));

/**
 * CJK bigrams holding a grammatical character straddle two words ("的密" of "我的密码"): noise.
 * Hiragana writes Japanese particles, verb endings and auxiliaries (the topic is in the kanji and
 * katakana words); the Han characters are Chinese particles and pronouns.
 */
const GRAMMATICAL = /[\p{Script=Hiragana}的了吗呢吧啊我你您他她它们是这那很都也就和与或及]/u;

/** The languages that have a list, for the language guess. */
export const STOP_WORD_LANGUAGES = [...SETS.keys()];

/** The stop words of `language` (folded), if it has a list. */
export function stopWordsOf(language: string): ReadonlySet<string> | undefined {
  return SETS.get(language);
}

/**
 * Whether a folded term says nothing about the topic. Stop words of every language apply, not
 * only the issue's: support messages mix languages ("Hi, merci") and the guess may be wrong,
 * while a function word of one language is rarely a topic word of another.
 */
export function isStopWord(term: string): boolean {
  return ALL.has(term) || GRAMMATICAL.test(term);
}
