/**
 * A map that forgets its least recently used entries beyond `capacity` entries, and beyond
 * `maxWeight` in all when entries are weighed (the newest entry stays, whatever it weighs).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private readonly weights = new Map<K, number>();
  private weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weighing?: { weigh: (value: V) => number; maxWeight: number },
  ) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    this.map.set(key, value);
    if (this.weighing) {
      const weight = this.weighing.weigh(value);
      this.weights.set(key, weight);
      this.weight += weight;
    }
    for (const oldest of this.map.keys()) {
      const over =
        this.map.size > this.capacity ||
        (this.weighing !== undefined && this.weight > this.weighing.maxWeight);
      if (!over || oldest === key) break;
      this.delete(oldest);
    }
  }

  /** The values, least recently used first, without counting as a use. */
  values(): IterableIterator<V> {
    return this.map.values();
  }

  /** The total weight of the entries (0 unless weighed). */
  get totalWeight(): number {
    return this.weight;
  }

  get size(): number {
    return this.map.size;
  }

  private delete(key: K): void {
    if (!this.map.delete(key)) return;
    this.weight -= this.weights.get(key) ?? 0;
    this.weights.delete(key);
  }
}
