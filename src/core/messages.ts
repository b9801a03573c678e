// The toast store: the core pushes messages, the UI renders them. Identical texts within the
// error throttle (100 ms) are shown once; a text pushed again later replaces its toast still on
// screen (saving twice shows one "Settings saved", not a pile of them); each message removes
// itself after its duration.
import { atom } from 'nanostores';
import { TIMING, TOAST } from './config';

export type MessageKind = 'error' | 'success' | 'info';

export interface ToastMessage {
  id: number;
  kind: MessageKind;
  text: string;
  /** How long the UI shows it, in ms. */
  duration: number;
}

export const $messages = atom<ToastMessage[]>([]);

/** When each text's toast last appeared. */
const lastShown = new Map<string, number>();
let nextId = 1;

export function dismissMessage(id: number): void {
  $messages.set($messages.get().filter((message) => message.id !== id));
}

/** Shows `text`; undefined when the same text was shown less than 100 ms ago. */
export function pushMessage(kind: MessageKind, text: string, duration: number = kind === 'error' ? TOAST.errorMs : TOAST.defaultMs): ToastMessage | undefined {
  const now = Date.now();
  if (now - (lastShown.get(text) ?? 0) < TIMING.errorThrottleMs) return undefined;
  lastShown.set(text, now);
  const message: ToastMessage = { id: nextId++, kind, text, duration };
  $messages.set([...$messages.get().filter((shown) => shown.text !== text), message]);
  // The text is forgotten with its toast (a later toast of it has replaced this one by then, at worst
  // forgetting its time early: a repeat would replace that toast again, which looks the same).
  const timer = setTimeout(() => (dismissMessage(message.id), lastShown.delete(text)), duration);
  // In Node (the server, tests) a pending toast must not keep the process alive.
  (timer as { unref?: () => void }).unref?.();
  return message;
}

/** A success message for 5 s (e.g. the translated 'Action Success'). */
export function notifySuccess(text: string): ToastMessage | undefined {
  return pushMessage('success', text, TOAST.defaultMs);
}

/** An error message, for 6 s unless told otherwise (403: 2 s). */
export function notifyError(text: string, duration: number = TOAST.errorMs): ToastMessage | undefined {
  return pushMessage('error', text, duration);
}
