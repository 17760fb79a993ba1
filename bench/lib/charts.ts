// Small SVG bar charts drawn from a run's own records, one per scenario: a row per metric, a bar
// per implementation, each labelled with its median (whiskers from min to max). Nothing is typed
// in by hand: docs/performance.md shows what the last full `pnpm bench` measured.
import type { BenchRecord } from "./report.js";
import { formatNumber } from "./report.js";

const COLORS: Record<string, string> = { acpkit: "#2457c5", official: "#a05a00", raw: "#6b6b70", "raw-naive": "#9a9aa0" };
const BAR = 14;
const GAP = 4;
const LABEL_WIDTH = 190;
const PLOT_WIDTH = 360;
const VALUE_WIDTH = 110;

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** One chart per scenario that has at least one measured value, keyed by scenario name. */
export function scenarioCharts(records: readonly BenchRecord[]): Map<string, string> {
  const byScenario = new Map<string, BenchRecord[]>();
  for (const record of records) {
    if (record.value === null) continue;
    const list = byScenario.get(record.scenario) ?? [];
    list.push(record);
    byScenario.set(record.scenario, list);
  }
  const charts = new Map<string, string>();
  for (const [scenario, list] of byScenario) charts.set(scenario, chart(scenario, list));
  return charts;
}

function chart(scenario: string, records: readonly BenchRecord[]): string {
  const metrics = [...new Set(records.map((record) => record.metric))];
  const rows: string[] = [];
  let y = 34;
  for (const metric of metrics) {
    const group = records.filter((record) => record.metric === metric);
    // Each metric has its own scale: units differ between metrics of one scenario.
    const scale = Math.max(...group.map((record) => record.max ?? record.value!), Number.MIN_VALUE);
    const better = group[0]!.better === "higher" ? "higher is better" : "lower is better";
    rows.push(`<text x="0" y="${y + 11}" class="metric">${escapeXml(metric || scenario)} (${escapeXml(group[0]!.unit)}, ${better})</text>`);
    y += 18;
    for (const record of group) {
      const width = (record.value! / scale) * PLOT_WIDTH;
      const low = ((record.min ?? record.value!) / scale) * PLOT_WIDTH;
      const high = ((record.max ?? record.value!) / scale) * PLOT_WIDTH;
      const color = COLORS[record.impl] ?? "#444";
      rows.push(
        `<text x="${LABEL_WIDTH - 6}" y="${y + BAR - 3}" class="impl" text-anchor="end">${escapeXml(record.impl)}</text>`,
        `<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR}" fill="${color}"><title>${escapeXml(`${record.impl} ${record.metric}: ${record.value} ${record.unit}`)}</title></rect>`,
        `<line x1="${(LABEL_WIDTH + low).toFixed(1)}" x2="${(LABEL_WIDTH + high).toFixed(1)}" y1="${y + BAR / 2}" y2="${y + BAR / 2}" class="whisker"/>`,
        `<text x="${LABEL_WIDTH + PLOT_WIDTH + 8}" y="${y + BAR - 3}" class="value">${escapeXml(formatNumber(record.value!))} ${escapeXml(record.unit)}</text>`,
      );
      y += BAR + GAP;
    }
    y += 10;
  }
  const width = LABEL_WIDTH + PLOT_WIDTH + VALUE_WIDTH;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" role="img" aria-label="${escapeXml(`${scenario} benchmark`)}">`,
    "<style>text{font:12px system-ui,sans-serif;fill:#333}.metric{font-weight:600}.value,.impl{fill:#555}.whisker{stroke:#111;stroke-width:1}</style>",
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="0" y="16" class="metric" style="font-size:14px">${escapeXml(scenario)}</text>`,
    ...rows,
    "</svg>",
    "",
  ].join("\n");
}
