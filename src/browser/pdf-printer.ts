import type { Browser } from 'playwright-core';
import { escapeHtml } from '../html-escape.js';
import type { ChromiumLaunch } from './chromium.js';

/** What a print needs besides its HTML. */
export interface PrintRequest {
  html: string;
  /** Shown in the running header of every sheet. */
  title: string;
  timeoutMs: number;
  /**
   * Answers the page's requests that may be answered (the server's own files), in process: the
   * browser never reaches the network. Undefined refuses the request.
   */
  serve?: (url: string) => Promise<{ body: Buffer; contentType: string } | undefined>;
}

export interface PrintResult {
  pdf: Buffer;
  /** Requests the page tried to make and was refused (it is given everything it needs inline). */
  refused: string[];
}

export interface PdfPrinterOptions {
  /** Where the browser is; throws when there is none (see `findChromium`). */
  locate: () => Promise<ChromiumLaunch>;
  /** The browser is closed after this long without a print. */
  idleMs: number;
  log: { info(object: object, message: string): void; warn(object: object, message: string): void };
}

/**
 * HTML to PDF with a headless Chromium driven by `playwright-core`. The page is printed with
 * JavaScript disabled and no network: its styles are inline, the files it shows are answered
 * by `serve` from the server's own store, and every other request is refused and recorded. One print at a
 * time (the job queue hands them out one by one too; this also holds for callers outside it),
 * one browser launched on first use and closed when idle, a fresh context per print.
 */
export class PdfPrinter {
  private browser: Promise<Browser> | undefined;
  private idle: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PdfPrinterOptions) {}

  print(request: PrintRequest): Promise<PrintResult> {
    const run = this.queue.then(() => this.printNow(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const browser = this.browser;
    this.browser = undefined;
    await browser?.then((b) => b.close()).catch(() => undefined);
  }

  private async printNow(request: PrintRequest): Promise<PrintResult> {
    if (this.idle) clearTimeout(this.idle);
    const browser = await this.launched();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const refused: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      await context.route('**/*', async (route) => {
        const url = route.request().url();
        const answer = await request.serve?.(url).catch(() => undefined);
        if (answer) return route.fulfill({ status: 200, contentType: answer.contentType, body: answer.body });
        refused.push(url);
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.setDefaultTimeout(request.timeoutMs);
      const work = (async () => {
        await page.setContent(request.html, { waitUntil: 'load', timeout: request.timeoutMs });
        return page.pdf(pdfOptions(request.title));
      })();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`printing took longer than ${request.timeoutMs} ms (QUIRE_PDF_TIMEOUT_MS)`)),
          request.timeoutMs,
        );
      });
      const pdf = await Promise.race([work, timeout]);
      return { pdf, refused };
    } catch (error) {
      // A browser that hangs or died is not trusted with the next print.
      await this.close();
      throw error;
    } finally {
      if (timer) clearTimeout(timer);
      await context.close().catch(() => undefined);
      this.idle = setTimeout(() => void this.close(), this.options.idleMs);
      this.idle.unref();
    }
  }

  private launched(): Promise<Browser> {
    this.browser ??= (async () => {
      const started = Date.now();
      const found = await this.options.locate();
      // Loaded on the first print: playwright-core alone is 0.8 s of every start otherwise.
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ ...found, timeout: 60_000 });
      browser.on('disconnected', () => {
        this.browser = undefined;
      });
      this.options.log.info(
        { chromium: found.executablePath, launchMs: Date.now() - started },
        'Chromium started for printing',
      );
      return browser;
    })();
    this.browser.catch(() => {
      this.browser = undefined;
    });
    return this.browser;
  }
}

const TEMPLATE_STYLE = 'font-family:system-ui,sans-serif;font-size:8px;color:#666;width:100%;padding:0 15mm;';

/** Chromium fills `.pageNumber` and `.totalPages` in the footer of each sheet. */
const FOOTER = `<div style="${TEMPLATE_STYLE}text-align:right;"><span class="pageNumber"></span> / <span class="totalPages"></span></div>`;

/** How a book is laid out on paper: A4, its outline and tags, the title above, page numbers below. */
export function pdfOptions(title: string) {
  return {
    format: 'A4',
    printBackground: true,
    outline: true,
    tagged: true,
    displayHeaderFooter: true,
    headerTemplate: runningHeader(title),
    footerTemplate: FOOTER,
    margin: { top: '18mm', bottom: '18mm', left: '15mm', right: '15mm' },
  };
}

function runningHeader(title: string): string {
  return `<div style="${TEMPLATE_STYLE}overflow:hidden;white-space:nowrap;text-overflow:ellipsis;">${escapeHtml(title)}</div>`;
}
