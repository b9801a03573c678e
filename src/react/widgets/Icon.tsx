// The console's icons: 24×24 outline paths drawn with currentColor. Decorative (aria-hidden):
// the control that holds an icon carries the accessible name.
import * as ui from './ui.css';

const paths = {
  home: ['M3 11.5 12 4l9 7.5', 'M5.5 9.5V20h13V9.5', 'M10 20v-5.5h4V20'],
  operate: ['M4 6h16', 'M4 12h16', 'M4 18h16', 'M8 4v4', 'M16 10v4', 'M11 16v4'],
  app: ['M4 4h7v7H4z', 'M13 4h7v7h-7z', 'M4 13h7v7H4z', 'M13 13h7v7h-7z'],
  user: ['M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z', 'M4 21a8 8 0 0 1 16 0'],
  tenant: ['M4 21V8l8-5 8 5v13', 'M9 21v-6h6v6', 'M8 10h2', 'M14 10h2'],
  setting: [
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z',
    'M19 12a7 7 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 0 0-2-1.2L14 3h-4l-.5 2.6a7 7 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7 7 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 2 1.2L10 21h4l.5-2.6a7 7 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2Z',
  ],
  tunnel: ['M4 7h11', 'M12 4l3 3-3 3', 'M20 17H9', 'M12 14l-3 3 3 3'],
  audit: ['M6 3h9l4 4v14H6z', 'M14 3v5h5', 'M9 12h7', 'M9 16h7'],
  webhook: ['M9 8a3 3 0 1 1 4.5 2.6L10 16', 'M7 19a3 3 0 1 1 0-6', 'M7 16h9.5', 'M17 19a3 3 0 1 0-2.5-4.7L11 8'],
  menu: ['M4 5h16v4H4z', 'M4 13h7v6H4z', 'M14 13h6', 'M14 17h6'],
  profile: ['M12 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Z', 'M5 20a7 7 0 0 1 14 0', 'M3 3h18v18H3z'],
  message: ['M4 5h16v11H9l-5 4z'],
  history: ['M3.5 12a8.5 8.5 0 1 0 2.5-6', 'M3 4v4h4', 'M12 8v4l3 2'],
  userInfo: ['M4 5h16v14H4z', 'M9 11a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z', 'M6 16a3 3 0 0 1 6 0', 'M14 9h4', 'M14 13h4'],
  fold: ['M4 6h16', 'M10 12h10', 'M4 18h16', 'M7 9l-3 3 3 3'],
  unfold: ['M4 6h16', 'M4 12h10', 'M4 18h16', 'M17 9l3 3-3 3'],
  chevronDown: ['M6 9l6 6 6-6'],
  chevronRight: ['M9 6l6 6-6 6'],
  back: ['M19 12H5', 'M11 6l-6 6 6 6'],
  sun: [
    'M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z',
    'M12 2v2',
    'M12 20v2',
    'M4.9 4.9l1.4 1.4',
    'M17.7 17.7l1.4 1.4',
    'M2 12h2',
    'M20 12h2',
    'M4.9 19.1l1.4-1.4',
    'M17.7 6.3l1.4-1.4',
  ],
  moon: ['M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5Z'],
  globe: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z', 'M3 12h18', 'M12 3c2.5 2.6 3.7 5.6 3.7 9s-1.2 6.4-3.7 9c-2.5-2.6-3.7-5.6-3.7-9S9.5 5.6 12 3Z'],
  logout: ['M15 4h4v16h-4', 'M10 8l-4 4 4 4', 'M6 12h10'],
  key: ['M8 15a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z', 'M11 11h10', 'M18 11v3', 'M15 11v2'],
  upload: ['M12 16V4', 'M7 9l5-5 5 5', 'M4 16v4h16v-4'],
  eye: ['M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z', 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z'],
  eyeOff: ['M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z', 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z', 'M4 4l16 16'],
  close: ['M6 6l12 12', 'M18 6L6 18'],
  external: ['M14 4h6v6', 'M20 4l-9 9', 'M18 14v6H4V6h6'],
  shield: ['M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6z', 'M9 12l2 2 4-4'],
  device: ['M3 5h18v11H3z', 'M8 20h8', 'M12 16v4'],
} as const;

export type IconName = keyof typeof paths;

export function isIconName(name: string | undefined): name is IconName {
  return !!name && Object.hasOwn(paths, name);
}

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className ?? ui.icon}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {paths[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
