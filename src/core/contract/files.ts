// Calls of server/routes/files.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration, LinkDeclaration } from './declare';
import { storedFileParams, uploadAnswer, uploadQuery } from '../schemas/files';

/** POST /file/upload */
export const postFileUpload = {
  method: 'POST',
  path: '/file/upload',
  multipart: true,
  query: uploadQuery,
  response: uploadAnswer,
} as const satisfies CallDeclaration;

/** GET /file/get/:name (an image's `src`) */
export const getStoredFile = { method: 'GET', path: '/file/get/:name', params: storedFileParams, answers: 'image/*' } as const satisfies LinkDeclaration;
