// The sign-in's authenticator set-up step (lazily loaded with it, outside the sign-in entry).
import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

/** The setup key as text, selectable in one click (typed into an app that cannot scan). */
export const secret = style({
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  overflowWrap: 'anywhere',
  userSelect: 'all',
});
