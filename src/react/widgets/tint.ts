/** A theme colour mixed with transparency (hover and selection tints, soft borders), so tints
 *  follow the --iam-* tokens and any host override of them. */
export const tint = (color: string, percent: number) => `color-mix(in srgb, ${color} ${percent}%, transparent)`;
