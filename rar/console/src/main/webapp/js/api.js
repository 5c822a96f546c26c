// The console's JSON API: same-origin requests carrying the header the server requires of every change (CSRF).

/** A refusal of the engine: its AQ number and sentence ("AQ-25448: ..."). */
export class AqError extends Error {
  constructor(code, message) {
    super(code && !/^AQ-\d{5}/.test(message) ? `AQ-${String(code).padStart(5, '0')}: ${message}` : message);
    this.code = code;
  }
}

export async function api(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: { 'Accept': 'application/json', 'X-Aqueduct-Console': '1' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch('api/' + path, init);
  const type = response.headers.get('Content-Type') || '';
  if (!type.includes('json')) {
    if (response.ok) {
      // the login form instead of an answer: the session ended
      location.reload();
      throw new AqError(0, 'Your session ended: log in again.');
    }
    throw new AqError(0, `The server answered ${response.status} ${response.statusText}.`);
  }
  const json = await response.json();
  if (!response.ok) {
    throw new AqError(json.error, json.message);
  }
  return json;
}

export const q = encodeURIComponent;
