/** FNV-1a, 32 bits, unsigned: a stable number for a stable key (a player id, a seed's name, a task's club). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
