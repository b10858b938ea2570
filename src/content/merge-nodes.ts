import { changesOf, deepEqual } from './merge-changes.js';
import type { VariableValue } from './tree.js';

export interface WholeMerge<T> {
  nodes: ReadonlyMap<string, T>;
  changed: Set<string>;
}

/**
 * Three-way merge of nodes that are taken or left whole (files, reusable contents): there is no
 * field of theirs worth combining, so two different edits of one node are a conflict.
 */
export function mergeWhole<T extends { id: string }>(
  base: ReadonlyMap<string, T>,
  ours: ReadonlyMap<string, T>,
  theirs: ReadonlyMap<string, T>,
  conflict: (id: string, problem: string) => void,
  edited?: { ours: Iterable<string>; theirs: Iterable<string> },
): WholeMerge<T> {
  const changed = new Set<string>();
  const theirChanges = changesOf(base, theirs, deepEqual, edited?.theirs);
  if (theirChanges.size === 0) return { nodes: ours, changed };
  const ourChanges = changesOf(base, ours, deepEqual, edited?.ours);
  const nodes = new Map(ours);
  for (const [id, theirChange] of theirChanges) {
    const ourChange = ourChanges.get(id);
    if (theirChange.kind === 'deleted') {
      if (ourChange?.kind === 'changed') conflict(id, 'was deleted on one side and changed on the other');
      else if (!ourChange) {
        nodes.delete(id);
        changed.add(id);
      }
    } else if (!ourChange) {
      nodes.set(id, theirChange.node);
      changed.add(id);
    } else if (ourChange.kind === 'deleted') {
      conflict(id, 'was deleted on one side and changed on the other');
    } else if (!deepEqual(ourChange.node, theirChange.node)) {
      conflict(
        id,
        ourChange.kind === 'added' ? 'was added differently on both sides' : 'was changed on both sides',
      );
    }
  }
  return { nodes, changed };
}

type Variables = Readonly<Record<string, VariableValue>>;

/** Key by key; a key missing from a side means that side deleted it (or never had it). */
export function mergeVariables(
  base: Variables,
  ours: Variables,
  theirs: Variables,
  conflict: (name: string) => void,
): Variables {
  if (theirs === base || theirs === ours) return ours;
  let merged: Record<string, VariableValue> | undefined;
  for (const name of new Set([...Object.keys(base), ...Object.keys(theirs)])) {
    const [was, mine, incoming] = [value(base, name), value(ours, name), value(theirs, name)];
    if (incoming === was || incoming === mine) continue;
    if (mine !== was) {
      conflict(name);
      continue;
    }
    merged ??= { ...ours };
    if (incoming === undefined) delete merged[name];
    else merged[name] = incoming;
  }
  return merged ?? ours;
}

function value(variables: Variables, name: string): VariableValue | undefined {
  return Object.hasOwn(variables, name) ? variables[name] : undefined;
}
