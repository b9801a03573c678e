// How tall a whole page outside the console's layout (the sign-in page, a status page) is at
// least: the viewport, or the console's container when the console is embedded there
// (app/shell.css.ts sets the variable on its contained root).
import { createVar, fallbackVar } from '@vanilla-extract/css';

export const pageMinHeight = createVar();
export const wholePageMinHeight = fallbackVar(pageMinHeight, '100vh');
