/**
 * Each ticket's slot in the list index (./list-index.ts), found by ticket ID: a hash table of slots in
 * one Int32Array (open addressing, linear probing), the ID of a slot read from the index's own ID
 * column. A Map of 100,000 IDs to slots held 3.5 MB; this holds 1 MB.
 */
export class SlotTable {
  /** Slot + 1 at each place, 0 for an empty one; never more than half full. */
  private places = new Int32Array(1024);
  private count = 0;

  /** `idOf(slot)`: the ticket ID a slot holds (the index's column, read each time: it grows). */
  constructor(private readonly idOf: (slot: number) => number) {}

  get size(): number {
    return this.count;
  }

  get(id: number): number | undefined {
    const at = this.find(id);
    return this.places[at] ? (this.places[at] as number) - 1 : undefined;
  }

  /** `slot` must hold `id` already. */
  set(id: number, slot: number): void {
    const at = this.find(id);
    if (!this.places[at]) this.count += 1;
    this.places[at] = slot + 1;
    if (this.count * 2 > this.places.length) this.rehash(this.places.length * 2);
  }

  delete(id: number): boolean {
    let at = this.find(id);
    if (!this.places[at]) return false;
    this.places[at] = 0;
    this.count -= 1;
    // Moves back each later entry of the run that its hash allows, so that no search stops at the gap.
    const mask = this.places.length - 1;
    for (let next = (at + 1) & mask; this.places[next]; next = (next + 1) & mask) {
      const home = this.home(this.idOf((this.places[next] as number) - 1));
      if (((next - home) & mask) >= ((next - at) & mask)) {
        this.places[at] = this.places[next] as number;
        this.places[next] = 0;
        at = next;
      }
    }
    return true;
  }

  *slots(): IterableIterator<number> {
    for (const place of this.places) if (place) yield place - 1;
  }

  /** Each ticket ID with its slot. */
  *entries(): IterableIterator<[number, number]> {
    for (const slot of this.slots()) yield [this.idOf(slot), slot];
  }

  /** Where `id` is, or the empty place where it would go. */
  private find(id: number): number {
    const mask = this.places.length - 1;
    let at = this.home(id);
    while (this.places[at] && this.idOf((this.places[at] as number) - 1) !== id) at = (at + 1) & mask;
    return at;
  }

  private home(id: number): number {
    return (Math.imul(id, 0x9e3779b1) >>> 0) & (this.places.length - 1);
  }

  private rehash(size: number): void {
    const old = this.places;
    this.places = new Int32Array(size);
    for (const place of old) if (place) this.places[this.find(this.idOf(place - 1))] = place;
  }
}
