// A small seeded pseudo-random generator (mulberry32): a seed run with the same seed number
// produces the same people, so figures measured over seeded data can be compared between runs.
// Not for secrets: the seed data is sample data.

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** `count` distinct items (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const chosen: T[] = [];
    while (chosen.length < count && pool.length) chosen.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0] as T);
    return chosen;
  }
}

/** Picks by weight in O(log n): build once, draw many times. */
export class WeightedPicker<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(private readonly items: readonly { value: T; weight: number }[]) {
    let sum = 0;
    for (const item of items) this.cumulative.push((sum += item.weight));
    this.total = sum;
    if (!items.length || sum <= 0) throw new Error('nothing to pick from');
  }

  pick(random: Random): T {
    const target = random.next() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return (this.items[low] as { value: T }).value;
  }
}
