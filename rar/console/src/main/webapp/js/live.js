// The live figures: statistics polled every 2 seconds, kept per queue (the last 150 polls, 5 minutes) so that a
// queue's charts show its recent past as soon as it is opened. Rates come from successive polls: the differences of
// the engine's enqueued / dequeued / failed-attempt counters, per second.
import { api } from './api.js';

const KEEP = 150;
const history = new Map();
const listeners = new Set();
let latest = null;

export function onStatistics(listener) {
  listeners.add(listener);
  if (latest) listener(latest);
  return () => listeners.delete(listener);
}

export function historyOf(queue) {
  return history.get(queue) || [];
}

export function latestOf(queue) {
  return latest && latest.queues.find(s => s.queue === queue);
}

async function poll() {
  try {
    const answer = await api('GET', 'statistics');
    if (answer.time === null) return; // the server's first poll is under way
    const t = answer.time / 1000;
    for (const s of answer.queues) {
      const points = history.get(s.queue) || [];
      const previous = points[points.length - 1];
      if (previous && previous.t >= t) continue; // the server has not polled since: nothing new
      const depth = s.ready + s.waiting;
      const dt = previous ? t - previous.t : 0;
      // a counter that went down: the engine restarted; no rate for that interval
      const rate = key => previous && dt > 0 && s[key] !== undefined && previous.counts[key] !== undefined
        && s[key] >= previous.counts[key] ? (s[key] - previous.counts[key]) / dt : null;
      const point = {
        t, depth, ready: s.ready, waiting: s.waiting, expired: s.expired, averageWait: s.averageWait,
        oldestReady: s.oldestReady,
        enqueueRate: rate('enqueued'), dequeueRate: rate('dequeued'), failureRate: rate('failedAttempts'),
        counts: { enqueued: s.enqueued, dequeued: s.dequeued, failedAttempts: s.failedAttempts },
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
