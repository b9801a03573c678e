// The id POST /file/upload answers for a stored image: its content's SHA-256 and extension. Its
// own module: the sign-in page's bundle needs this pattern (api/files.ts) without the upload rules.
export const FILE_ID = /^[0-9a-f]{64}\.(?:png|jpg|gif|ico|svg)$/;
