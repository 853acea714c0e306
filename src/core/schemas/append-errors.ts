/**
 * ajv gathers the errors of a referenced schema with `vErrors.concat(ref.errors)`, which copies every error
 * gathered so far. Collecting all errors of an array whose items each fail a `$ref` (the branch of a union a
 * long message did not mean) then copies the list once per item: time grows with the square of the items.
 * This rewrites each such concat, in the code ajv generates, into appending in place: the same errors in the
 * same order, in time linear in their number. Code without the pattern is left as it is (still correct).
 */

/** A failing reference's errors joined to those gathered so far, as ajv 8 writes it. */
const CONCAT = /vErrors === null \? ([\w$.]+)\.errors : vErrors\.concat\(\1\.errors\)/g;

/** Appends in place; `n` is read first so a list appended to itself doubles, as concat would. */
const HELPER = "function appendErrorsInPlace(a, b) { for (let i = 0, n = b.length; i < n; i++) a.push(b[i]); return a; }\n";

/** For ajv's `code.process`: the generated source with every concat of errors made an in-place append. */
export function appendErrorsInPlace(source: string): string {
  let found = false;
  const out = source.replace(CONCAT, (_m, ref: string) => {
    found = true;
    return `vErrors === null ? ${ref}.errors : appendErrorsInPlace(vErrors, ${ref}.errors)`;
  });
  return found ? HELPER + out : source;
}
