/**
 * The templates a space can start from: pages with real starting content, nested by `parent`
 * (the `ref` of an earlier page of the same template).
 */
export interface TemplatePage {
  ref: string;
  parent?: string;
  title: string;
  markdown: string;
}

export interface Template {
  id: string;
  title: string;
  pages: TemplatePage[];
}

export const TEMPLATES: Template[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    pages: [
      {
        ref: 'welcome',
        title: 'Welcome',
        markdown: `# Welcome

This is the home of your documentation. Say in a sentence or two what the product does and who these pages are for.

{% hint style="info" %}
Every page here can be edited through a change request: propose, review, merge.
{% endhint %}

## Where to go next

* [Quick start](quick-start.md): up and running in five minutes.
* [Core concepts](core-concepts.md): the ideas the rest of the docs build on.
* [FAQ](faq.md): answers to what people ask most.
`,
      },
      {
        ref: 'quick-start',
        title: 'Quick start',
        markdown: `# Quick start

## 1. Install

\`\`\`bash
npm install your-product
\`\`\`

## 2. Configure

Create a configuration file with the settings you need:

\`\`\`json
{
  "name": "my-project"
}
\`\`\`

## 3. Run

\`\`\`bash
npx your-product start
\`\`\`

You should see a confirmation that everything works. If not, see the [FAQ](faq.md).
`,
      },
      {
        ref: 'core-concepts',
        title: 'Core concepts',
        markdown: `# Core concepts

Explain the few ideas readers need before anything else.

## Concept one

What it is, and why it matters.

## Concept two

How it relates to the first one.
`,
      },
      {
        ref: 'faq',
        title: 'FAQ',
        markdown: `# FAQ

<details>

<summary>Where do I report a problem?</summary>

Tell readers where to go: an issue tracker, a support address, a chat.

</details>

<details>

<summary>How do I get help?</summary>

Point to the channels where your team answers questions.

</details>
`,
      },
    ],
  },
  {
    id: 'knowledge-base',
    title: 'Knowledge base',
    pages: [
      {
        ref: 'overview',
        title: 'Overview',
        markdown: `# Overview

This knowledge base collects how we work: guides for common tasks and fixes for known problems.

| Section | What you find there |
| --- | --- |
| How-to guides | Step-by-step instructions for common tasks |
| Troubleshooting | Known problems and how to fix them |
`,
      },
      {
        ref: 'guides',
        title: 'How-to guides',
        markdown: `# How-to guides

Step-by-step instructions, one task per page.
`,
      },
      {
        ref: 'first-guide',
        parent: 'guides',
        title: 'Set up your workspace',
        markdown: `# Set up your workspace

1. Request access from your team lead.
2. Install the tools listed on this page.
3. Check that you can sign in.

{% hint style="success" %}
Done? Move on to the next guide.
{% endhint %}
`,
      },
      {
        ref: 'troubleshooting',
        title: 'Troubleshooting',
        markdown: `# Troubleshooting

{% tabs %}
{% tab title="Sign-in fails" %}
Check that your account is active, then clear the cached credentials and try again.
{% endtab %}

{% tab title="Something is slow" %}
Note when it happens and what you were doing, and report it with those details.
{% endtab %}
{% endtabs %}
`,
      },
    ],
  },
];
