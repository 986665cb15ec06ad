import { SlotList } from './columns';

/**
 * The slots of `lists` merged in ascending order, each once, that `accept` takes, stopping at
 * `budget` taken: a k-way merge that reads no further than it needs (a common lexeme's list
 * of thousands is read only up to the budget), ascending.
 */
export function firstInSlotOrder(
  lists: readonly SlotList[],
  budget: number,
  accept: (slot: number) => boolean,
): Int32Array {
  const taken = new Int32Array(budget);
  let count = 0;
  const at = new Int32Array(lists.length);
  while (count < budget) {
    // The smallest head (few lists: a query has at most 16 terms).
    let next = -1;
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l]!;
      if (at[l]! < list.length && (next < 0 || list.at(at[l]!) < next)) next = list.at(at[l]!);
    }
    if (next < 0) break;
    for (let l = 0; l < lists.length; l++)
      if (at[l]! < lists[l]!.length && lists[l]!.at(at[l]!) === next) at[l] = at[l]! + 1;
    if (accept(next)) taken[count++] = next;
  }
  return taken.subarray(0, count);
}

/**
 * The slots both ascending lists hold, ascending: the shorter list is walked and the longer
 * galloped through, so a scope of hundreds costs hundreds of steps against a list of any length.
 */
export function intersect(a: SlotList, b: SlotList): SlotList {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const both = new Int32Array(short.length);
  let count = 0;
  let at = 0;
  for (let i = 0; i < short.length && at < long.length; i++) {
    const slot = short.at(i);
    at = long.seek(slot, at);
    if (at < long.length && long.at(at) === slot) both[count++] = slot;
  }
  return SlotList.ofSorted(both.subarray(0, count));
}

/**
 * Which of the terms' lists (bit i = lists[i]; undefined: a term no item has) each of `slots`
 * (ascending) is in: each list is walked forward once, galloping, instead of searched per slot.
 */
export function matchedBits(lists: ReadonlyArray<SlotList | undefined>, slots: Int32Array): Int32Array {
  const bits = new Int32Array(slots.length);
  for (let i = 0; i < lists.length; i++) {
    const list = lists[i];
    if (!list) continue;
    const bit = 1 << i;
    let at = 0;
    for (let s = 0; s < slots.length && at < list.length; s++) {
      at = list.seek(slots[s]!, at);
      if (at < list.length && list.at(at) === slots[s]) bits[s] = bits[s]! | bit;
    }
  }
  return bits;
}

/** Which of the terms' lists one slot is in (bit i = lists[i]), by a binary search in each. */
export function matchedBitsOf(lists: ReadonlyArray<SlotList | undefined>, slot: number): number {
  let bits = 0;
  for (let i = 0; i < lists.length; i++) if (lists[i]?.has(slot)) bits |= 1 << i;
  return bits;
}
