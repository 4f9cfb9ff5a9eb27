/**
 * One memo per world snapshot (or per model, or per model and snapshot): what is derived from an
 * immutable owner is computed once and kept exactly as long as the owner lives, in one place rather
 * than a cache per module. Owners are objects (a Snapshot, its dataIdentity, a model artifact);
 * a list of owners keys by all of them together, in order.
 */
interface Node {
  readonly next: WeakMap<object, Node>;
  readonly tables: Map<string, Map<string, unknown>>;
}

const root = new WeakMap<object, Node>();
const VALUE = '';

function nodeOf(owners: object | readonly object[]): Node {
  const list: readonly object[] = Array.isArray(owners) ? owners : [owners];
  if (list.length === 0) throw new Error('memo: no owner');
  let level = root;
  let node: Node | undefined;
  for (const owner of list) {
    node = level.get(owner);
    if (!node) level.set(owner, (node = { next: new WeakMap(), tables: new Map() }));
    level = node.next;
  }
  return node as Node;
}

/** The owners' table named `name` (created empty on first use), for values keyed by id within it. */
export function memoTable<V>(owners: object | readonly object[], name: string): Map<string, V> {
  const tables = nodeOf(owners).tables;
  let table = tables.get(name);
  if (!table) tables.set(name, (table = new Map()));
  return table as Map<string, V>;
}

/** The value of `compute` for the owners and `name`, computed on first use (a throw is not kept). */
export function memoFor<T>(owners: object | readonly object[], name: string, compute: () => T): T {
  const table = memoTable<T>(owners, name);
  if (table.has(VALUE)) return table.get(VALUE) as T;
  const value = compute();
  table.set(VALUE, value);
  return value;
}
