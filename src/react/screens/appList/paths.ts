// Where the app list links to: the detail page of one app (route app/detail/{id}).
export const appDetailPath = (id: string) => `/app/detail/${encodeURIComponent(id)}`;
