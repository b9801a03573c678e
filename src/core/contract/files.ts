// Calls of server/routes/files.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { uploadAnswer, uploadQuery } from '../schemas/files';

/** POST /file/upload */
export const postFileUpload = {
  method: 'POST',
  path: '/file/upload',
  multipart: true,
  query: uploadQuery,
  response: uploadAnswer,
} as const satisfies CallDeclaration;
