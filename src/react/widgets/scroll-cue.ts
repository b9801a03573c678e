// Style for a strip that scrolls sideways when narrow (tab strips at 320 px): a shade at each edge
// with more behind it. Covers of the background's colour scroll with the content (`local`) and hide
// the shades (`scroll`, fixed to the box) at an end it has reached, so the cover must be the
// colour the strip sits on. Used by the *.css.ts files.
import { vars } from '../theme/theme.css';
import { tint } from './tint';

export const sidewaysScrollCue = (cover: string) => ({
  overflowX: 'auto' as const,
  background: [
    `linear-gradient(to right, ${cover} 40%, transparent) left center / 32px 100% no-repeat local`,
    `linear-gradient(to left, ${cover} 40%, transparent) right center / 32px 100% no-repeat local`,
    `radial-gradient(farthest-side at 0 50%, ${tint(vars.color.text, 35)}, transparent) left center / 14px 100% no-repeat scroll`,
    `radial-gradient(farthest-side at 100% 50%, ${tint(vars.color.text, 35)}, transparent) right center / 14px 100% no-repeat scroll`,
  ].join(', '),
});
