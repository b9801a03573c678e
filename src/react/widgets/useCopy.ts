// Copy a value to the clipboard with a "copied" toast; where the clipboard is not available (an
// http page, a denied permission) the text on screen is selected for Ctrl+C and `manual` is set,
// so the screen can say so.
import { useState } from 'react';
import { notifySuccess } from '../../core/messages';

export function useCopy(): { copy: (value: string, shown: HTMLElement | null, copied: string) => Promise<void>; manual: boolean } {
  const [manual, setManual] = useState(false);
  const copy = async (value: string, shown: HTMLElement | null, copied: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setManual(false);
      notifySuccess(copied);
    } catch {
      if (shown instanceof HTMLTextAreaElement) shown.select();
      else if (shown) window.getSelection()?.selectAllChildren(shown);
      setManual(true);
    }
  };
  return { copy, manual };
}
