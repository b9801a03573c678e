import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

export const block = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  minWidth: 0,
  height: '100%',
  padding: `0 ${vars.space.sm}`,
  color: vars.color.text,
  textDecoration: 'none',
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '-2px' } },
});

export const collapsed = style({ justifyContent: 'center', width: '100%', padding: 0 });

export const logo = style({ flex: 'none', width: '30px', height: '30px', objectFit: 'contain', color: vars.color.primary });

export const brandImage = style({ display: 'block', maxWidth: '100%', maxHeight: '34px', objectFit: 'contain' });

export const name = style({
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  fontSize: '15px',
  fontWeight: 600,
  letterSpacing: '0.01em',
});
