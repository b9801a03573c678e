// A QR code drawn on a canvas (loaded on demand with the QR encoder). Drawn rather than written
// as SVG markup: the encoded text (an otpauth:// URI with its secret) never appears in the DOM.
// Dark modules on white with a quiet zone, in both themes, so that phone cameras read it. Shared by
// the personal center and the sign-in's authenticator set-up step (both load it lazily).
import { useEffect, useRef } from 'react';
import { encode } from 'uqr';
import * as styles from './QrCode.css';

/** CSS pixels of the drawn code. */
const SIZE = 184;

export default function QrCode({ text, label }: { text: string; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    const { data, size } = encode(text, { ecc: 'M', border: 4 });
    const scale = Math.max(1, Math.floor((SIZE * window.devicePixelRatio) / size));
    element.width = size * scale;
    element.height = size * scale;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, element.width, element.height);
    context.fillStyle = '#000000';
    data.forEach((row, y) => row.forEach((dark, x) => dark && context.fillRect(x * scale, y * scale, scale, scale)));
  }, [text]);

  return <canvas ref={canvas} className={styles.qrCode} role="img" aria-label={label} />;
}
