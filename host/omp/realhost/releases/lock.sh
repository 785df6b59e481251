#!/usr/bin/env bash
# Maintainer's script: writes releases/<V>/package.json for one published
# OMP release and resolves its package-lock.json against the npm registry
# (metadata only, nothing is installed). deskcheck-host installs from the
# committed pair with pnpm (pnpm import, then a frozen install with no
# install scripts; host/omp/realhost/store.go).
#
#   lock.sh VERSION [-substitute]
#
# Every package.json pins the release, its native addon for linux-x64 at
# the same version and bun 1.4.2, and replaces with the failing stub
# absent/ the dependencies the harness never loads (per release: 17.x loads
# OpenTelemetry, 14.9.9 loads puppeteer-core). With -substitute (18.2.9,
# 18.3.4 only) the @oh-my-pi dependencies that are not published at the
# release's version are pinned, by "overrides", to the nearest published
# version (spec §1 notes); the package.json says so in "deskcheck".
set -euo pipefail
cd "$(dirname "$0")"
v=$1
sub=${2:-}
mkdir -p "$v"
node - "$v" "$sub" > "$v/package.json" <<'JS'
const [v, sub] = process.argv.slice(2);
const major = Number(v.split(".")[0]);
const stub = "file:./absent";
const stubs = [
  "@oh-my-pi/pi-mnemopi",
  "@oh-my-pi/pi-natives-darwin-arm64", "@oh-my-pi/pi-natives-darwin-x64",
  "@oh-my-pi/pi-natives-linux-arm64", "@oh-my-pi/pi-natives-win32-arm64", "@oh-my-pi/pi-natives-win32-x64",
  "@tailwindcss/node", "chart.js", "lucide-react", "react", "react-chartjs-2", "react-dom", "tailwindcss",
];
if (major >= 18) stubs.push(
  "@opentelemetry/api-logs", "@opentelemetry/context-async-hooks", "@opentelemetry/exporter-logs-otlp-proto",
  "@opentelemetry/exporter-metrics-otlp-proto", "@opentelemetry/exporter-trace-otlp-proto", "@opentelemetry/resources",
  "@opentelemetry/sdk-logs", "@opentelemetry/sdk-metrics", "@opentelemetry/sdk-trace-base", "@opentelemetry/sdk-trace-node");
if (major !== 14) stubs.push("puppeteer-core");
if (major === 13) stubs.push("puppeteer");
const overrides = Object.fromEntries(stubs.sort().map(n => [n, stub]));
let natives = v;
const substituted = {};
if (sub === "-substitute") {
  const table = {
    "18.2.9": { "@oh-my-pi/omp-stats": "18.2.11", "@oh-my-pi/omptype": "18.2.11", "@oh-my-pi/pi-catalog": "18.2.11",
      "@oh-my-pi/pi-wire": "18.2.11", "@oh-my-pi/snapcompact": "18.2.11", "@oh-my-pi/pi-ai": "18.2.10",
      "@oh-my-pi/pi-natives-linux-x64": "18.2.11" },
    "18.3.4": { "@oh-my-pi/pi-utils": "18.2.9", "@oh-my-pi/pi-tui": "18.2.9", "@oh-my-pi/pi-natives": "18.2.10",
      "@oh-my-pi/pi-natives-linux-x64": "18.2.11", "@oh-my-pi/omp-stats": "18.2.11", "@oh-my-pi/omptype": "18.2.11",
      "@oh-my-pi/pi-catalog": "18.2.11", "@oh-my-pi/pi-wire": "18.2.11", "@oh-my-pi/snapcompact": "18.2.11",
      "@oh-my-pi/pi-ai": "18.2.11", "@oh-my-pi/pi-agent-core": "18.2.11" },
  }[v];
  if (!table) throw new Error(`no substitution is defined for ${v}`);
  // The substituted packages ask for their own version of the others:
  // hold every @oh-my-pi package that is published at the release's
  // version to it.
  const exact = { "18.2.9": ["@oh-my-pi/pi-agent-core", "@oh-my-pi/pi-natives", "@oh-my-pi/pi-tui", "@oh-my-pi/pi-utils"], "18.3.4": [] }[v];
  for (const n of exact) overrides[n] = v;
  for (const [n, sv] of Object.entries(table)) {
    if (n === "@oh-my-pi/pi-natives-linux-x64") { natives = sv; overrides[n] = sv; continue; }
    if (!(n in overrides)) overrides[n] = sv;
    substituted[n] = sv;
  }
  substituted["@oh-my-pi/pi-natives-linux-x64"] = natives;
}
const deps = { "@oh-my-pi/pi-coding-agent": v, "@oven/bun-linux-x64-baseline": "1.4.2" };
// 13.x and 14.x carry their addon inside pi-natives.
if (major >= 17) deps["@oh-my-pi/pi-natives-linux-x64"] = natives;
const pkg = {
  name: `deskcheck-omp-${v}`, version: "0.0.0", private: true, type: "module",
  description: `The published OMP release ${v}, for deskcheck's real-host harness; installed with npm ci --ignore-scripts.`,
  license: "MIT",
  dependencies: Object.fromEntries(Object.entries(deps).sort()),
  overrides: Object.fromEntries(Object.entries(overrides).sort()),
};
if (Object.keys(substituted).length) pkg.deskcheck = { substituted: Object.fromEntries(Object.entries(substituted).sort()) };
process.stdout.write(JSON.stringify(pkg, null, 2) + "\n");
JS
rm -rf "$v/absent"; cp -r ../harness/absent "$v/absent"
(cd "$v" && npm install --package-lock-only --ignore-scripts --omit=optional --no-audit --no-fund --loglevel=error)
rm -rf "$v/absent"
echo "lock.sh: $v/package-lock.json: $(grep -c '"node_modules/' "$v/package-lock.json") packages"
