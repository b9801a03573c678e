import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

export const qrCode = style({ width: '184px', height: '184px', borderRadius: vars.radius.base, imageRendering: 'pixelated' });
