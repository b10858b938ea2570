/**
 * Replaces link targets written in markdown: `[text](target)`, `![alt](<target>)`, HTML
 * `src="target"` / `href="target"`, and the `src`/`url` of GitBook's tags. A target matches with
 * or without a leading `./`. Used where a batch of writes names something by a name it gave it
 * (a file's `ref`) before that thing had a place.
 */
export function rewriteHrefs(markdown: string, targets: ReadonlyMap<string, string>): string {
  if (targets.size === 0) return markdown;
  const names = [...targets.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const alternatives = `(?:\\./)?(${names.join('|')})`;
  const link = new RegExp(`(\\]\\(\\s*)(<)?${alternatives}(>)?(?=[\\s)])`, 'g');
  const attribute = new RegExp(`(\\s(?:src|href|url|srcset)=")${alternatives}(?=")`, 'g');
  const encode = (target: string) => (/[\s()<>]/.test(target) ? `<${target}>` : target);
  return markdown
    .replace(
      link,
      (_whole, open: string, _lt: string | undefined, name: string) => `${open}${encode(targets.get(name)!)}`,
    )
    .replace(attribute, (_whole, open: string, name: string) => `${open}${targets.get(name)!}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
