/**
 * What a V8 heap snapshot holds, summarised (bench/heap.ts writes the snapshots; docs/performance.md
 * "Memory of a serving process" records the figures):
 * - the top constructors by self size (every object of that name together), and
 * - the objects of the given class names by retained size (what would be freed without them), each
 *   with its largest properties by retained size: what an index holds, part by part.
 * Retained sizes come from the dominator tree (Cooper, Harvey and Kennedy's iterative algorithm over
 * the snapshot's graph, weak edges left out), as Chrome's DevTools computes them.
 *
 *   npx tsx bench/heap-summary.ts <file.heapsnapshot> [ClassName,…]
 */
import fs from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** The snapshot as typed arrays: node i's type, name, self size and first edge; edges' type, name and target. */
class HeapGraph {
  readonly count: number;
  readonly type: Uint8Array;
  readonly name: Uint32Array;
  readonly self: Float64Array;
  readonly firstEdge: Uint32Array;
  readonly edgeType: Uint8Array;
  readonly edgeName: Uint32Array;
  readonly edgeTo: Uint32Array;
  readonly typeNames: string[];
  readonly edgeTypeNames: string[];
  readonly strings: string[];

  constructor(s: Snapshot) {
    const { meta } = s.snapshot;
    const nf = meta.node_fields.length;
    const ef = meta.edge_fields.length;
    const at = (fields: string[], name: string) => fields.indexOf(name);
    const [nType, nName, nSelf, nEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => at(meta.node_fields, f)) as [number, number, number, number];
    const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => at(meta.edge_fields, f)) as [number, number, number];
    this.count = s.nodes.length / nf;
    this.type = new Uint8Array(this.count);
    this.name = new Uint32Array(this.count);
    this.self = new Float64Array(this.count);
    this.firstEdge = new Uint32Array(this.count + 1);
    const edges = s.edges.length / ef;
    this.edgeType = new Uint8Array(edges);
    this.edgeName = new Uint32Array(edges);
    this.edgeTo = new Uint32Array(edges);
    let edge = 0;
    for (let i = 0; i < this.count; i++) {
      const base = i * nf;
      this.type[i] = s.nodes[base + nType] as number;
      this.name[i] = s.nodes[base + nName] as number;
      this.self[i] = s.nodes[base + nSelf] as number;
      this.firstEdge[i] = edge;
      edge += s.nodes[base + nEdges] as number;
    }
    this.firstEdge[this.count] = edge;
    for (let e = 0; e < edges; e++) {
      this.edgeType[e] = s.edges[e * ef + eType] as number;
      this.edgeName[e] = s.edges[e * ef + eName] as number;
      this.edgeTo[e] = (s.edges[e * ef + eTo] as number) / nf;
    }
    this.typeNames = meta.node_types[0];
    this.edgeTypeNames = meta.edge_types[0];
    this.strings = s.strings;
  }

  /** How summaries name a node: its constructor for objects, its kind for strings, arrays and code. */
  label(node: number): string {
    const type = this.typeNames[this.type[node] as number] as string;
    if (type === 'object' || type === 'native' || type === 'closure') return this.strings[this.name[node] as number] as string;
    return `(${type})`;
  }

  edgeLabel(edge: number): string {
    const type = this.edgeTypeNames[this.edgeType[edge] as number];
    return type === 'element' || type === 'hidden' ? `[${this.edgeName[edge]}]` : (this.strings[this.edgeName[edge] as number] as string);
  }

  isWeak(edge: number): boolean {
    return this.edgeTypeNames[this.edgeType[edge] as number] === 'weak';
  }
}

/** Immediate dominators (node 0 is the root) and retained sizes. */
function retainedSizes(g: HeapGraph): { idom: Int32Array; retained: Float64Array } {
  // Post-order from the root, iteratively.
  const order = new Int32Array(g.count).fill(-1);
  const postorder: number[] = [];
  const stack: Array<[number, number]> = [[0, g.firstEdge[0] as number]];
  order[0] = -2;
  while (stack.length) {
    const top = stack[stack.length - 1] as [number, number];
    const [node, edge] = top;
    if (edge < (g.firstEdge[node + 1] as number)) {
      top[1] = edge + 1;
      const to = g.edgeTo[edge] as number;
      if (!g.isWeak(edge) && order[to] === -1) {
        order[to] = -2;
        stack.push([to, g.firstEdge[to] as number]);
      }
    } else {
      stack.pop();
      order[node] = postorder.length;
      postorder.push(node);
    }
  }
  // Predecessors (reachable nodes only), as compressed rows.
  const predCount = new Uint32Array(g.count + 1);
  for (let n = 0; n < g.count; n++) {
    if (order[n] as number < 0) continue;
    for (let e = g.firstEdge[n] as number; e < (g.firstEdge[n + 1] as number); e++) if (!g.isWeak(e)) predCount[(g.edgeTo[e] as number) + 1]! += 1;
  }
  for (let n = 0; n < g.count; n++) predCount[n + 1]! += predCount[n] as number;
  const preds = new Uint32Array(predCount[g.count] as number);
  const fill = predCount.slice();
  for (let n = 0; n < g.count; n++) {
    if (order[n] as number < 0) continue;
    for (let e = g.firstEdge[n] as number; e < (g.firstEdge[n + 1] as number); e++) if (!g.isWeak(e)) preds[fill[g.edgeTo[e] as number]!++] = n;
  }
  const idom = new Int32Array(g.count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while ((order[a] as number) < (order[b] as number)) a = idom[a] as number;
      while ((order[b] as number) < (order[a] as number)) b = idom[b] as number;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = postorder.length - 2; i >= 0; i--) {
      const node = postorder[i] as number;
      let dom = -1;
      for (let p = predCount[node] as number; p < (predCount[node + 1] as number); p++) {
        const pred = preds[p] as number;
        if (idom[pred] === -1) continue;
        dom = dom === -1 ? pred : intersect(pred, dom);
      }
      if (dom !== -1 && idom[node] !== dom) {
        idom[node] = dom;
        changed = true;
      }
    }
  }
  const retained = Float64Array.from(g.self);
  for (const node of postorder) if (node !== 0 && idom[node] !== -1) retained[idom[node] as number]! += retained[node] as number;
  return { idom, retained };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function summarise(file: string, classes: readonly string[], top = 15): string {
  const g = new HeapGraph(JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot);
  const { idom, retained } = retainedSizes(g);
  const lines: string[] = [];
  const bySelf = new Map<string, { self: number; count: number }>();
  let total = 0;
  for (let n = 0; n < g.count; n++) {
    if (idom[n] === -1) continue;
    const entry = bySelf.get(g.label(n)) ?? { self: 0, count: 0 };
    entry.self += g.self[n] as number;
    entry.count += 1;
    bySelf.set(g.label(n), entry);
    total += g.self[n] as number;
  }
  lines.push(`heap snapshot ${file}: ${mb(total)} reachable`, '', `top ${top} constructors by self size:`);
  for (const [label, { self, count }] of [...bySelf].sort((a, b) => b[1].self - a[1].self).slice(0, top)) {
    lines.push(`  ${mb(self).padStart(9)}  ${String(count).padStart(9)} objects  ${label}`);
  }
  for (let n = 0; n < g.count; n++) {
    if (!classes.includes(g.label(n)) || idom[n] === -1) continue;
    lines.push('', `${g.label(n)}: retains ${mb(retained[n] as number)}`);
    const parts: Array<[string, number]> = [];
    for (let e = g.firstEdge[n] as number; e < (g.firstEdge[n + 1] as number); e++) {
      const to = g.edgeTo[e] as number;
      if (idom[to] === n) parts.push([`${g.edgeLabel(e)} (${g.label(to)})`, retained[to] as number]);
    }
    for (const [part, size] of parts.sort((a, b) => b[1] - a[1]).slice(0, 8)) lines.push(`  ${mb(size).padStart(9)}  .${part}`);
  }
  return lines.join('\n');
}

if (require.main === module) {
  const [file, classes = ''] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx bench/heap-summary.ts <file.heapsnapshot> [ClassName,…]');
  process.stdout.write(`${summarise(file, classes.split(',').filter(Boolean))}\n`);
}
