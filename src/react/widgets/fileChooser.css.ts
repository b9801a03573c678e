import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

/** The button and the chosen file's name on one line (the name shortened with an ellipsis). */
export const row = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, minWidth: 0 });
