import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const panel = style({ marginTop: vars.space.lg, paddingTop: vars.space.md, borderTop: `1px solid ${vars.color.border}` });

export const title = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '15px', fontWeight: 600 });

export const details = style({
  display: 'grid',
  // Labels take at most 40% of the row (long ones wrap) so that a value still has room on a phone.
  gridTemplateColumns: 'fit-content(40%) minmax(0, 1fr)',
  gap: `${vars.space.sm} ${vars.space.md}`,
  margin: `0 0 ${vars.space.md}`,
});

export const value = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere' });

export const uris = style({ listStyle: 'none', margin: 0, padding: 0 });

export const uriList = style({ minHeight: '72px', resize: 'vertical', fontFamily: 'inherit' });
