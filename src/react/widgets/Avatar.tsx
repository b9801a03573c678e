// A user's avatar: the uploaded image, else their initial on a tinted disc. Decorative: the
// name is always written next to it.
import { fileUrl } from '../../core/api/files';
import * as styles from './Avatar.css';

export function Avatar({ src, name, size = 28 }: { src?: string; name: string; size?: number }) {
  const dimensions = { width: size, height: size };
  const url = src ? fileUrl(src) : '';
  if (url) return <img className={styles.avatar} src={url} alt="" {...dimensions} />;
  return (
    // The initial is drawn by CSS (::before), so it is no visible text of the button it sits in:
    // that button's accessible name is the person's name, which its visible text must match.
    <span
      className={styles.avatar}
      aria-hidden="true"
      data-initial={Array.from(name.trim())[0] ?? '?'}
      style={{ ...dimensions, fontSize: Math.round(size * 0.45) }}
    />
  );
}
