// Where the menu plan list links to: the menu of one app, or the global one (route menu/detail/{id}).
export const menuDetailPath = (appId: string) => `/menu/detail/${encodeURIComponent(appId)}`;
