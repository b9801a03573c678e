import { style } from '@vanilla-extract/css';
import { tile } from './HomeScreen.css';

/** A SAML app's tile: a button (it starts a sign-in) that looks like the link tiles. */
export const tileButton = style([tile, { width: '100%', font: 'inherit', textAlign: 'start', cursor: 'pointer' }]);
