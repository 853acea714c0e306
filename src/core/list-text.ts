/**
 * Lists in failure messages. A list a target controls (tools left open, entries of a turn, types it made up, schema
 * errors) can be as long as its stream: a message shows the first few and counts the rest, so it stays short however
 * long the list.
 *
 * No imports, and outside checks/: the schema registry words its errors with it, and a mock's first answer loads the
 * registry but nothing of the checks.
 */

/** How many items a message shows before "… and N more", unless a rule says otherwise. */
export const LISTED = 5;

/** A list whose length is known without reading it: an array, a Set or a Map. */
export type Sized<T> = Iterable<T> & ({ readonly length: number } | { readonly size: number });

const sizeOf = (items: Sized<unknown>): number => ("length" in items ? items.length : items.size);

/**
 * The first `max` items, each as `show` words it, joined by `sep`, then "… and N more" when there are more. Reads
 * only the items it shows, so the work does not depend on the list's length either. An empty list gives ""; `max` ≥ 1.
 */
export function listFirst<T>(items: Sized<T>, show: (item: T) => string = String, max = LISTED, sep = ", "): string {
  const shown: string[] = [];
  for (const item of items) {
    shown.push(show(item));
    if (shown.length >= max) break;
  }
  const rest = sizeOf(items) - shown.length;
  return rest > 0 ? `${shown.join(sep)}${sep}… and ${rest} more` : shown.join(sep);
}
