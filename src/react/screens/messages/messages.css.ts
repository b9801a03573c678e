import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.sm });

export const item = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
});

/** Unread messages carry a bar in the primary colour on their leading edge. */
export const unread = style({ borderInlineStart: `3px solid ${vars.color.primary}` });

export const itemHead = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, flexWrap: 'wrap' });

export const itemTitle = style({ margin: 0, fontSize: '15px', fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' });

/** The title as the button that opens the message: looks like the title, shows it is pressable. */
export const opener = style({
  display: 'inline-flex',
  alignItems: 'flex-start',
  gap: vars.space.xs,
  padding: 0,
  border: 'none',
  background: 'none',
  color: 'inherit',
  font: 'inherit',
  textAlign: 'start',
  cursor: 'pointer',
  overflowWrap: 'anywhere',
  selectors: { '&:hover': { textDecoration: 'underline' } },
});

export const openerIcon = style({ flex: 'none', width: '16px', height: '16px', marginTop: '2px' });

export const sender = style({ margin: `2px 0 0`, color: vars.color.textMuted, fontSize: vars.font.sizeSmall });

export const time = style({ marginInlineStart: 'auto', color: vars.color.textMuted, fontSize: vars.font.sizeSmall, whiteSpace: 'nowrap' });

export const content = style({ margin: `${vars.space.xs} 0 0`, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' });

export const itemActions = style({ display: 'flex', justifyContent: 'flex-end', gap: '2px', marginTop: vars.space.xs });

/** A group of controls under one visible legend, without a frame. */
export const group = style({ margin: 0, padding: 0, border: 'none', minWidth: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xs });

export const legend = style({ padding: 0 });
