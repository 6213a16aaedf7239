/**
 * The figures block every scenario prints (k6 handleSummary) instead of k6's long default summary, and the same
 * figures as JSON for the runner (K6_SUMMARY_OUT). Targets are printed as PASS/FAIL lines; they never make k6 fail
 * (no k6 thresholds), so the command exits 0 whatever the figures are.
 */

/** Trend stats every scenario's options carry, so p50/p99 exist in the summary. */
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)', 'count'];

/** Reads one value from the summary: m('e2e_ms', 'p(99)'), m('deliveries', 'count'), m('rss_kb', 'value'). */
export function metricReader(data) {
  return (name, stat) => {
    const x = data.metrics[name];
    if (!x || !x.values) return null;
    const v = x.values[stat];
    return v === undefined ? null : v;
  };
}

function fmt(v, digits) {
  if (v === null || v === undefined || Number.isNaN(v)) return 'n/a';
  if (typeof v !== 'number') return String(v);
  if (digits !== undefined) return v.toFixed(digits);
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/**
 * handleSummary for a scenario.
 *   title: 'W2 realistic chat'; scale: () => 'one line saying the scale'
 *   figures(m): [{ key, label, value, unit, digits, note }]  (value may be null: printed n/a)
 *   checks(m, fig): [{ label, ok (true/false/null = not measured) }]
 */
export function makeSummary(title, scale, figures, checks) {
  return (data) => {
    const m = metricReader(data);
    const figs = figures(m);
    const byKey = Object.fromEntries(figs.map((f) => [f.key, f.value]));
    const results = checks ? checks(m, byKey) : [];
    const target = __ENV.K6_TARGET || 'unknown target';
    const lines = [`== k6 ${title} [${target} ${__ENV.ORIGIN || ''}]`, `   scale: ${scale()}`];
    const width = Math.max(...figs.map((f) => f.label.length));
    for (const f of figs) {
      lines.push(
        `   ${f.label.padEnd(width)}  ${fmt(f.value, f.digits)}${f.unit ? ' ' + f.unit : ''}${f.note ? `   (${f.note})` : ''}`,
      );
    }
    for (const r of results) lines.push(`   ${r.ok === null ? 'N/A ' : r.ok ? 'PASS' : 'FAIL'} ${r.label}`);
    const text = lines.join('\n') + '\n';
    const out = { stdout: text };
    if (__ENV.K6_SUMMARY_OUT) {
      out[__ENV.K6_SUMMARY_OUT] = JSON.stringify(
        {
          workload: title,
          target,
          origin: __ENV.ORIGIN,
          scale: scale(),
          text,
          figures: figs.map((f) => ({ key: f.key, label: f.label, value: f.value, unit: f.unit || '' })),
          checks: results,
          durationMs: data.state ? data.state.testRunDurationMs : null,
        },
        null,
        2,
      );
    }
    return out;
  };
}

/** ok when v <= bound; null when v is not known. */
export const atMost = (v, bound) => (v === null || v === undefined ? null : v <= bound);
