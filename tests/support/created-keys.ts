/**
 * Every key the tests of this process created, for the audit of the API log (tests/setup/each-file.ts).
 * A module of its own, importing nothing: the setup loads it before a test file mocks any module.
 */
export const createdKeys: string[] = [];
