import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';
import { tint } from './tint';

export const avatar = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flex: 'none',
  overflow: 'hidden',
  borderRadius: '50%',
  background: tint(vars.color.primary, 22),
  color: vars.color.primary,
  fontWeight: 700,
  textTransform: 'uppercase',
  objectFit: 'cover',
  selectors: {
    '&[data-initial]::before': { content: 'attr(data-initial)' },
  },
});
