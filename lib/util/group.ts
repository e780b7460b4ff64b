/** Appends `value` to the list `map` holds at `key` (a new list the first time): grouping in linear time, where copying the list on every append is quadratic. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
