/**
 * Children (leaves or branches, oldest first, none yet under a parent) grouped for their
 * parents: every `fanOut` consecutive children make one; fewer wait for more.
 */
export function parentGroups<T>(orphans: readonly T[], fanOut: number): T[][] {
  const groups: T[][] = [];
  for (let start = 0; start + fanOut <= orphans.length; start += fanOut)
    groups.push(orphans.slice(start, start + fanOut));
  return groups;
}
