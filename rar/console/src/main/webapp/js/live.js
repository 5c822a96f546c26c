// The live figures: statistics polled every 2 seconds, kept per queue (the last 150 polls, 5 minutes) so that a
// queue's charts show its recent past as soon as it is opened. Rates come from successive polls: the change count
// of the queue (committed enqueues, releases, expiries, messages becoming ready) and the depth, per second.
import { api, q } from './api.js';

const KEEP = 150;
const history = new Map();
const listeners = new Set();
let latest = null;
let focus = null;

export function onStatistics(listener) {
  listeners.add(listener);
  if (latest) listener(latest);
  return () => listeners.delete(listener);
}

/** The queue (and consumer) whose head message's age is polled too: the open queue page's. */
export function focusOn(queue, consumer) {
  focus = queue ? { queue, consumer } : null;
}

export function historyOf(queue) {
  return history.get(queue) || [];
}

export function latestOf(queue) {
  return latest && latest.queues.find(s => s.queue === queue);
}

async function poll() {
  try {
    let path = 'statistics';
    if (focus) path += `?queue=${q(focus.queue)}` + (focus.consumer ? `&consumer=${q(focus.consumer)}` : '');
    const answer = await api('GET', path);
    if (answer.time === null) return; // the server's first poll is under way
    const t = answer.time / 1000;
    for (const s of answer.queues) {
      const points = history.get(s.queue) || [];
      const previous = points[points.length - 1];
      if (previous && previous.t >= t) continue; // the server has not polled since: nothing new
      const depth = s.ready + s.waiting;
      const dt = previous ? t - previous.t : 0;
      const point = {
        t, depth, ready: s.ready, waiting: s.waiting, expired: s.expired, averageWait: s.averageWait,
        changes: previous && dt > 0 ? Math.max(0, (s.changes - previous.changeCount) / dt) : 0,
        net: previous && dt > 0 ? (depth - previous.depth) / dt : 0,
        changeCount: s.changes,
        headAge: answer.head && answer.head.queue === s.queue ? answer.head.ageSeconds : null,
      };
      points.push(point);
      if (points.length > KEEP) points.shift();
      history.set(s.queue, points);
    }
    latest = answer;
    document.getElementById('live').textContent = (answer.failure ? 'figures of ' : 'live · ')
      + new Date(answer.time).toLocaleTimeString() + (answer.failure ? ' (the last poll failed: ' + answer.failure + ')' : '');
    listeners.forEach(l => l(answer));
  } catch (e) {
    document.getElementById('live').textContent = 'not live: ' + e.message;
  }
}

export function start() {
  poll();
  setInterval(poll, 2000);
}
