/** A page's search parameters as Next.js gives them: a name may repeat, and pages read its first value. */
export type SearchParams = Record<string, string | string[] | undefined>;

export const firstValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The first value of each of `names` that is given and not empty: what a page's links and forms keep. */
export const givenValues = (given: SearchParams, names: readonly string[]): Record<string, string> =>
  Object.fromEntries(
    names.flatMap((name) => {
      const value = firstValue(given[name]);
      return value ? [[name, value]] : [];
    }),
  );
