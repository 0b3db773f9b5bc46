/**
 * Minimum s–t cut by the Boykov–Kolmogorov augmenting-path algorithm ("An Experimental Comparison of Min-Cut/Max-Flow
 * Algorithms for Energy Minimization in Vision", PAMI 2004): two search trees grown from the terminals, reused after
 * each augmentation instead of rebuilt, which is what makes it fast on the short paths of image grids.
 *
 * Capacities are kept in a Float64Array; callers that want exact arithmetic give whole numbers (every sum and
 * difference of whole numbers below 2^53 is exact, so "saturated" means exactly zero).
 */

const NONE = -1;
const TERMINAL = -2;
const ORPHAN = -3;

export class FlowGraph {
  readonly nodeCount: number;
  /** Residual capacity to the sink (negative) or from the source (positive). */
  private readonly terminal: Float64Array;
  private readonly firstArc: Int32Array;
  private head: Int32Array;
  private nextArc: Int32Array;
  private capacity: Float64Array;
  private arcCount = 0;

  private parent!: Int32Array;
  private inSink!: Uint8Array;
  private nextActive!: Int32Array;
  private stamp!: Int32Array;
  private depth!: Int32Array;
  private queueFirst = NONE;
  private queueLast = NONE;
  private time = 0;
  /** Ring buffer of orphans: augmentation adds at the front, adoption at the back, processing takes the front. */
  private orphans!: Int32Array;
  private orphanHead = 0;
  private orphanCount = 0;
  private solved = false;

  constructor(nodeCount: number, arcCapacityHint = nodeCount * 8) {
    this.nodeCount = nodeCount;
    this.terminal = new Float64Array(nodeCount);
    this.firstArc = new Int32Array(nodeCount).fill(NONE);
    this.head = new Int32Array(arcCapacityHint);
    this.nextArc = new Int32Array(arcCapacityHint);
    this.capacity = new Float64Array(arcCapacityHint);
  }

  /** Adds `source` to the capacity from the source and `sink` to the capacity to the sink of `node`. */
  addTerminal(node: number, source: number, sink: number): void {
    this.terminal[node]! += source - sink;
  }

  /** An edge i→j of capacity `forward` and j→i of capacity `backward`. */
  addEdge(i: number, j: number, forward: number, backward: number): void {
    if (this.arcCount + 2 > this.head.length) this.grow();
    const a = this.arcCount;
    this.arcCount += 2;
    this.head[a] = j;
    this.capacity[a] = forward;
    this.nextArc[a] = this.firstArc[i]!;
    this.firstArc[i] = a;
    this.head[a + 1] = i;
    this.capacity[a + 1] = backward;
    this.nextArc[a + 1] = this.firstArc[j]!;
    this.firstArc[j] = a + 1;
  }

  /** Runs the algorithm; returns the flow value (= the cut's cost, less what addTerminal's pairs cancelled). */
  maxFlow(): number {
    if (this.solved) throw new Error('FlowGraph.maxFlow runs once');
    this.solved = true;
    const n = this.nodeCount;
    const { terminal, head, nextArc, capacity, firstArc } = this;
    this.parent = new Int32Array(n).fill(NONE);
    this.inSink = new Uint8Array(n);
    this.nextActive = new Int32Array(n).fill(NONE);
    this.stamp = new Int32Array(n);
    this.depth = new Int32Array(n);
    this.orphans = new Int32Array(n);
    const { parent, inSink, stamp, depth, nextActive } = this;
    for (let i = 0; i < n; i++) {
      if (terminal[i] !== 0) {
        inSink[i] = terminal[i]! < 0 ? 1 : 0;
        parent[i] = TERMINAL;
        this.setActive(i);
        depth[i] = 1;
      }
    }
    let flow = 0;
    let current = NONE;
    for (;;) {
      let i = current;
      if (i !== NONE) {
        nextActive[i] = NONE;
        if (parent[i] === NONE) i = NONE;
      }
      if (i === NONE) {
        i = this.popActive();
        if (i === NONE) break;
      }
      // Grow the tree of i by one layer; stop at the first arc that reaches the other tree.
      let meeting = NONE;
      if (!inSink[i]) {
        for (let a = firstArc[i]!; a !== NONE; a = nextArc[a]!) {
          if (capacity[a] === 0) continue;
          const j = head[a]!;
          if (parent[j] === NONE) {
            inSink[j] = 0;
            parent[j] = a ^ 1;
            stamp[j] = stamp[i]!;
            depth[j] = depth[i]! + 1;
            this.setActive(j);
          } else if (inSink[j]) {
            meeting = a;
            break;
          } else if (stamp[j]! <= stamp[i]! && depth[j]! > depth[i]!) {
            parent[j] = a ^ 1;
            stamp[j] = stamp[i]!;
            depth[j] = depth[i]! + 1;
          }
        }
      } else {
        for (let a = firstArc[i]!; a !== NONE; a = nextArc[a]!) {
          if (capacity[a ^ 1] === 0) continue;
          const j = head[a]!;
          if (parent[j] === NONE) {
            inSink[j] = 1;
            parent[j] = a ^ 1;
            stamp[j] = stamp[i]!;
            depth[j] = depth[i]! + 1;
            this.setActive(j);
          } else if (!inSink[j]) {
            meeting = a ^ 1;
            break;
          } else if (stamp[j]! <= stamp[i]! && depth[j]! > depth[i]!) {
            parent[j] = a ^ 1;
            stamp[j] = stamp[i]!;
            depth[j] = depth[i]! + 1;
          }
        }
      }
      this.time++;
      if (meeting !== NONE) {
        nextActive[i] = i; // flags i active without queueing it: it is resumed next
        current = i;
        flow += this.augment(meeting);
        while (this.orphanCount > 0) {
          const orphan = this.orphans[this.orphanHead]!;
          this.orphanHead = (this.orphanHead + 1) % this.nodeCount;
          this.orphanCount--;
          if (inSink[orphan]) this.adoptSinkOrphan(orphan);
          else this.adoptSourceOrphan(orphan);
        }
      } else {
        current = NONE;
      }
    }
    return flow;
  }

  /** After maxFlow: 1 where the node is on the source side of the minimum cut (free nodes count as source side). */
  sourceSide(): Uint8Array {
    const side = new Uint8Array(this.nodeCount);
    for (let i = 0; i < this.nodeCount; i++) side[i] = this.parent[i] !== NONE && this.inSink[i] ? 0 : 1;
    return side;
  }

  private grow(): void {
    const size = Math.max(16, this.head.length * 2);
    const head = new Int32Array(size);
    head.set(this.head);
    const nextArc = new Int32Array(size);
    nextArc.set(this.nextArc);
    const capacity = new Float64Array(size);
    capacity.set(this.capacity);
    this.head = head;
    this.nextArc = nextArc;
    this.capacity = capacity;
  }

  private setActive(i: number): void {
    if (this.nextActive[i] !== NONE) return;
    if (this.queueLast !== NONE) this.nextActive[this.queueLast] = i;
    else this.queueFirst = i;
    this.queueLast = i;
    this.nextActive[i] = i;
  }

  private popActive(): number {
    for (;;) {
      const i = this.queueFirst;
      if (i === NONE) return NONE;
      if (this.nextActive[i] === i) this.queueFirst = this.queueLast = NONE;
      else this.queueFirst = this.nextActive[i]!;
      this.nextActive[i] = NONE;
      if (this.parent[i] !== NONE) return i;
    }
  }

  private makeOrphan(i: number): void {
    this.parent[i] = ORPHAN;
    this.orphanHead = (this.orphanHead - 1 + this.nodeCount) % this.nodeCount;
    this.orphans[this.orphanHead] = i;
    this.orphanCount++;
  }

  private augment(middle: number): number {
    const { head, capacity, parent, terminal } = this;
    let bottleneck = capacity[middle]!;
    let i = head[middle ^ 1]!;
    for (;;) {
      const a = parent[i]!;
      if (a === TERMINAL) break;
      bottleneck = Math.min(bottleneck, capacity[a ^ 1]!);
      i = head[a]!;
    }
    bottleneck = Math.min(bottleneck, terminal[i]!);
    i = head[middle]!;
    for (;;) {
      const a = parent[i]!;
      if (a === TERMINAL) break;
      bottleneck = Math.min(bottleneck, capacity[a]!);
      i = head[a]!;
    }
    bottleneck = Math.min(bottleneck, -terminal[i]!);

    capacity[middle ^ 1]! += bottleneck;
    capacity[middle]! -= bottleneck;
    i = head[middle ^ 1]!;
    for (;;) {
      const a = parent[i]!;
      if (a === TERMINAL) break;
      capacity[a]! += bottleneck;
      capacity[a ^ 1]! -= bottleneck;
      if (capacity[a ^ 1] === 0) this.makeOrphan(i);
      i = head[a]!;
    }
    terminal[i]! -= bottleneck;
    if (terminal[i] === 0) this.makeOrphan(i);
    i = head[middle]!;
    for (;;) {
      const a = parent[i]!;
      if (a === TERMINAL) break;
      capacity[a ^ 1]! += bottleneck;
      capacity[a]! -= bottleneck;
      if (capacity[a] === 0) this.makeOrphan(i);
      i = head[a]!;
    }
    terminal[i]! += bottleneck;
    if (terminal[i] === 0) this.makeOrphan(i);
    return bottleneck;
  }

  /** Distance to the terminal through valid parents, or Infinity if the chain ends at an orphan. */
  private originDistance(start: number): number {
    const { parent, stamp, depth, head } = this;
    let j = start;
    let d = 0;
    for (;;) {
      if (stamp[j] === this.time) return d + depth[j]!;
      const a = parent[j]!;
      d++;
      if (a === TERMINAL) {
        stamp[j] = this.time;
        depth[j] = 1;
        return d;
      }
      if (a === ORPHAN || a === NONE) return Infinity;
      j = head[a]!;
    }
  }

  private markPath(start: number, distance: number): void {
    const { parent, stamp, depth, head } = this;
    let d = distance;
    for (let j = start; stamp[j] !== this.time; j = head[parent[j]!]!) {
      stamp[j] = this.time;
      depth[j] = d--;
    }
  }

  private adoptSourceOrphan(i: number): void {
    this.adopt(i, false);
  }

  private adoptSinkOrphan(i: number): void {
    this.adopt(i, true);
  }

  private adopt(i: number, sinkTree: boolean): void {
    const { firstArc, nextArc, head, capacity, parent, inSink, stamp, depth } = this;
    const want = sinkTree ? 1 : 0;
    let bestArc = NONE;
    let bestDistance = Infinity;
    for (let a = firstArc[i]!; a !== NONE; a = nextArc[a]!) {
      // A source-tree parent j must be able to push into i (arc j→i, the sister of a); a sink-tree parent must accept
      // flow from i (arc i→j, a itself).
      if ((sinkTree ? capacity[a] : capacity[a ^ 1]) === 0) continue;
      const j = head[a]!;
      if (inSink[j] !== want || parent[j] === NONE) continue;
      const d = this.originDistance(j);
      if (d === Infinity) continue;
      if (d < bestDistance) {
        bestArc = a;
        bestDistance = d;
      }
      this.markPath(j, d);
    }
    if (bestArc !== NONE) {
      parent[i] = bestArc;
      stamp[i] = this.time;
      depth[i] = bestDistance + 1;
      return;
    }
    parent[i] = NONE;
    for (let a = firstArc[i]!; a !== NONE; a = nextArc[a]!) {
      const j = head[a]!;
      const p = parent[j]!;
      if (inSink[j] !== want || p === NONE) continue;
      if ((sinkTree ? capacity[a] : capacity[a ^ 1]) !== 0) this.setActive(j);
      if (p !== TERMINAL && p !== ORPHAN && head[p] === i) this.makeOrphanRear(j);
    }
  }

  private makeOrphanRear(j: number): void {
    this.parent[j] = ORPHAN;
    this.orphans[(this.orphanHead + this.orphanCount) % this.nodeCount] = j;
    this.orphanCount++;
  }
}
