import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const progress = style({ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: vars.space.sm });

export const summary = style({ margin: 0, padding: `${vars.space.sm} 12px`, borderRadius: vars.radius.base, border: `1px solid ${vars.color.border}` });

export const heading = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '15px', fontWeight: 600 });

export const template = style({ alignSelf: 'flex-start' });

export const problems = style({
  maxHeight: '280px',
  overflow: 'auto',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  overflowWrap: 'anywhere',
});
