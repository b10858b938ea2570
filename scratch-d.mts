import { markdownToDocument, documentToMarkdown } from './src/content/markdown/index.js';
const md = process.argv[2] ?? `# Hello *world*

Some **bold** and *italic* and \`code\` and ~~strike~~ text with a [link](https://x.com) and ![img](a.png) inline.\\
Next line.

## Custom <a href="#my-id" id="my-id"></a>

* one
* two
  * nested
* [ ] not task

1. first
2. second

3. [x] done

- [ ] todo
- [x] done

> quote
> > nested

---

| A | B |
| :-: | --: |
| 1 | **2** |
| x |

![alone](pic.png)

<figure><img src="a.png" alt="A"><figcaption><p>Cap &amp; tion</p></figcaption></figure>

{% hint style="warning" %}
Careful
{% endhint %}

{% hint style="info" %}
\`\`\`js
code in hint
\`\`\`
{% endhint %}

{% code title="x.js" overflow="wrap" lineNumbers="true" %}
\`\`\`js
let a = 1;
\`\`\`
{% endcode %}

{% tabs %}
{% tab title="A" %}
a
{% endtab %}

{% tab title="B" %}
| t |
| - |
| c |
{% endtab %}
{% endtabs %}

<details>

<summary>More</summary>

Body

</details>

{% embed url="https://youtube.com/x" %}

{% file src=".gitbook/assets/x.pdf" %}

{% content-ref url="guides/setup.md" %}
[setup.md](guides/setup.md)
{% endcontent-ref %}

$$
E = mc^2 \\\\ x
$$

Inline $$a^2$$ math.

<div>raw html</div>

{% swagger method="get" %}
inside
{% endswagger %}

Footnote[^1].

[^1]: The note.
`;
const doc = markdownToDocument(md);
console.log(JSON.stringify(doc).length);
const out = documentToMarkdown(doc);
console.log(out);
const doc2 = markdownToDocument(out);
const out2 = documentToMarkdown(doc2);
console.log('stable:', out === out2, JSON.stringify(doc) === JSON.stringify(doc2));
if (out !== out2) console.log(out2);
if (process.argv[3]) console.log(JSON.stringify(doc, null, 1));
