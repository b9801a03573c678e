import { style, styleVariants } from '@vanilla-extract/css';
import { UPLOAD } from '../../core/config';
import { vars } from '../theme/theme.css';
import { tint } from './tint';

export const row = style({ display: 'flex', alignItems: 'flex-end', flexWrap: 'wrap', gap: vars.space.md });

const previewBase = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  flex: 'none',
  maxWidth: '100%',
  overflow: 'hidden',
  background: tint(vars.color.text, 6),
  border: `1px dashed ${vars.color.inputBorder}`,
  borderRadius: vars.radius.base,
  color: vars.color.textMuted,
});

/** the screen map: the icon preview is 290 px wide, the favicon's 46 px; an avatar is a 96 px disc. */
export const preview = styleVariants({
  // A fixed height: a tall or wide logo is scaled down inside the box, never stretching it.
  icon: [previewBase, { width: `${UPLOAD.iconPreviewWidth}px`, height: '96px', padding: vars.space.sm }],
  image: [previewBase, { width: `${UPLOAD.iconPreviewWidth}px`, height: '96px', padding: vars.space.sm }],
  favicon: [previewBase, { width: `${UPLOAD.faviconPreviewWidth}px`, height: `${UPLOAD.faviconPreviewWidth}px` }],
  avatar: [previewBase, { width: '96px', height: '96px', borderRadius: '50%' }],
});

export const filled = style({ borderStyle: 'solid', borderColor: vars.color.border });

/** Scaled down to fit the box, keeping its proportions (never larger than the box). */
export const image = style({ display: 'block', maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' });

export const avatarImage = style({ width: '100%', height: '100%', objectFit: 'cover' });

export const placeholder = style({ width: '24px', height: '24px', opacity: 0.7 });
