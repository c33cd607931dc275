/** `{ 1: '官种', 2: '非官种' }` → select options `[{ label: '官种', value: 1 }, …]` in wire order. */
export interface EnumOption<V extends number | string> {
  label: string
  value: V
}

export function enumOptions<K extends number>(labels: Record<K, string>): EnumOption<K>[] {
  return Object.entries<string>(labels)
    .map(([value, label]) => ({ label, value: Number(value) as K }))
    .sort((a, b) => a.value - b.value)
}
