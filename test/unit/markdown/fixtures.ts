import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A page as GitBook git sync writes one, with most block kinds side by side. */
export const PAGE = `---
description: Install Quire and publish your first space.
---

# Quick start

Quire serves your docs over the **GitBook API**. This guide takes *about five minutes*.

{% hint style="info" %}
You need Node.js 20 or later. Check with \`node --version\`.
{% endhint %}

## Install

{% tabs %}
{% tab title="npm" %}
\`\`\`sh
npm install -g quire
\`\`\`
{% endtab %}

{% tab title="Docker" %}
\`\`\`sh
docker run -p 8080:8080 quire/quire
\`\`\`
{% endtab %}
{% endtabs %}

## Configure <a href="#config" id="config"></a>

Create \`quire.json\` next to your content:

{% code title="quire.json" lineNumbers="true" %}
\`\`\`json
{
  "publicUrl": "https://docs.example.com",
  "database": "sqlite:///var/lib/quire.db"
}
\`\`\`
{% endcode %}

| Setting     | Default      | Meaning                                  |
| ----------- | ------------ | ---------------------------------------- |
| \`publicUrl\` | *(required)* | The address readers use                  |
| \`database\`  | in memory    | SQLite file or \`postgres://\` URL<br>Both |

1. Start the server.
2. Open [the admin page](http://localhost:8080/admin).
3. Follow [Setup](guides/setup.md) for the rest.

* [x] Server running
* [ ] First space published

<figure><img src=".gitbook/assets/first-space.png" alt="The first space"><figcaption><p>Your first space</p></figcaption></figure>

<details>

<summary>Troubleshooting</summary>

If the port is taken, set \`PORT\`:

\`\`\`sh
PORT=9090 quire
\`\`\`

</details>

> Quire stores every page as markdown, so git sync stays lossless.

---

The average load is $$\\frac{1}{n}\\sum_i x_i$$ per request.

$$
\\text{latency} = t_{queue} + t_{work}
$$

{% embed url="https://www.youtube.com/watch?v=quire" %}

{% file src=".gitbook/assets/cheatsheet.pdf" %}

{% content-ref url="guides/setup.md" %}
[guides/setup.md](guides/setup.md)
{% endcontent-ref %}

<div align="center"><img src="logo.svg" width="120"></div>
`;

/** Every markdown file of the GitBook-shaped fixtures (git sync repositories as GitBook writes them). */
export function fixtureTexts(): Array<[string, string]> {
  const root = path.resolve('test/fixtures');
  const out: Array<[string, string]> = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(at);
      else if (entry.name.endsWith('.md')) out.push([path.relative(root, at), readFileSync(at, 'utf8')]);
    }
  };
  visit(root);
  return out;
}
