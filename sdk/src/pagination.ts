/**
 * Every item of a cursor-paged list, page after page, as the caller consumes them: `fetchPage` is
 * called with the next cursor (undefined first) and answers the page's items and the cursor of the
 * page after it, null at the end.
 */
export async function* paginate<Item>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: Item[]; next: string | null }>,
): AsyncGenerator<Item, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
}
