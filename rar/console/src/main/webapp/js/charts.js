// The queue page's live charts (uPlot, served from the WAR's WebJar): rates, depth, oldest READY message's age.
import { h } from './dom.js';
import { historyOf } from './live.js';

const SPECS = [
  { id: 'rates', title: 'Throughput (messages per second)', series: [
      { label: 'enqueued/s', key: 'enqueueRate', stroke: '#1f5fae' },
      { label: 'dequeued/s', key: 'dequeueRate', stroke: '#1b7f3b' },
      { label: 'failed attempts/s', key: 'failureRate', stroke: '#b00020' }] },
  { id: 'depth', title: 'Depth (messages)', series: [
      { label: 'ready', key: 'ready', stroke: '#1b7f3b' },
      { label: 'waiting', key: 'waiting', stroke: '#8e44ad' },
      { label: 'expired', key: 'expired', stroke: '#b00020' }] },
  { id: 'age', title: 'Oldest READY message (seconds waited)', series: [
      { label: 'oldest', key: 'oldestReady', stroke: '#555' }] },
];

/** Builds the charts of {@code queue} into {@code container}; returns the function that redraws them. */
export function charts(container, queue) {
  const plots = [];
  for (const spec of SPECS) {
    const box = h('div', { class: 'chart', id: `chart-${spec.id}` }, h('h3', {}, spec.title));
    const latest = h('div', { class: 'latest', id: `latest-${spec.id}` });
    container.append(box);
    const plot = new uPlot({
      width: 420, height: 200,
      series: [{}, ...spec.series.map(s => ({ label: s.label, stroke: s.stroke, width: 2 }))],
      axes: [{}, { size: 50 }],
      scales: { x: { time: true, range: timeRange } },
    }, data(spec, queue), box);
    box.append(latest);
    plots.push({ spec, plot, latest });
  }
  const redraw = () => {
    for (const { spec, plot, latest } of plots) {
      const d = data(spec, queue);
      plot.setData(d);
      const last = d[0].length - 1;
      latest.textContent = last < 0 ? '' : spec.series.map((s, i) => `${s.label}: ${format(d[i + 1][last])}`).join(' · ');
      latest.dataset.value = last < 0 ? '' : String(d[1][last] ?? '');
      latest.dataset.values = last < 0 ? '[]' : JSON.stringify(spec.series.map((s, i) => d[i + 1][last] ?? null));
      latest.dataset.points = String(d[0].length);
    }
  };
  redraw();
  return redraw;
}

// At least the last minute. With one point uPlot widens the time axis by 86,400,000 s (years ahead) before asking
// this range, so a lone point is placed from the data itself, not from the range it is handed.
function timeRange(u, min, max) {
  const xs = u.data && u.data[0];
  if (!xs || xs.length < 2) {
    const t = xs && xs.length ? xs[0] : Date.now() / 1000;
    return [t - 60, t];
  }
  return [Math.min(min, max - 60), max];
}

function data(spec, queue) {
  const points = historyOf(queue);
  return [points.map(p => p.t), ...spec.series.map(s => points.map(p => p[s.key]))];
}

function format(v) {
  return v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(2);
}
