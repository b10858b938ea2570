/**
 * Tables whose rows change no answer: what they hold is derived from other rows and would be
 * derived again the same (a page's converted document is what converting its markdown gives,
 * areas/content/stored-documents.ts). A statement writing one of them moves no generation, so it
 * empties no process's read cache (read-cache.ts): the fill that follows every merge would
 * otherwise empty them all a second time.
 */
const DERIVED_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+"(?:page_documents|page_document_fills)"\s/i;

/** Whether `sql` writes only to a derived table (see above). */
export function writesDerived(sql: string): boolean {
  return DERIVED_WRITE.test(sql);
}
