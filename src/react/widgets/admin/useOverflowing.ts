// Whether a box is narrower than its content (a wide table on a phone): such a scroller must be
// reachable by keyboard, or its hidden columns are out of reach without a pointer (axe's
// scrollable-region-focusable). A box that fits stays out of the tab order.
import { useEffect, useState, type RefObject } from 'react';

export function useOverflowing(ref: RefObject<HTMLElement | null>): boolean {
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflowing(box.scrollWidth > box.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return overflowing;
}
