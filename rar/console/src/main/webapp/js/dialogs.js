// Every operation is confirmed, and its outcome shown.
import { clear } from './dom.js';

/** Asks; resolves true when confirmed. {@code extra}: elements (e.g. a target select) shown in the dialog. */
export function confirmed(text, ...extra) {
  const dialog = document.getElementById('confirm');
  document.getElementById('confirm-text').textContent = text;
  clear(document.getElementById('confirm-extra'), ...extra);
  return new Promise(resolve => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.returnValue = '';
    dialog.showModal();
  });
}

export function outcome(text, error) {
  const box = document.getElementById('outcome');
  box.textContent = text;
  box.className = error ? 'error' : 'ok';
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

/** Confirms, runs the request, shows its outcome (the AQ error on a refusal); true when it was done. */
export async function operate(question, request, ...extra) {
  if (!(await confirmed(question, ...extra))) return false;
  try {
    const answer = await request();
    outcome(answer.done || 'Done.', false);
    return true;
  } catch (e) {
    outcome(e.message, true);
    return false;
  }
}
