// The policy-check harness: drives one release's own policy engine of
// @google/gemini-cli-core, inertly, one case per line.
//
// Run: node --import ./stubs.mjs harness.mjs CORE_DIR RUN_DIR
// with cwd the empty workspace folder (in the sandbox, the run's ws folder
// seen at /workspace, the workspace of deskcheck's model), HOME the run's
// home folder (seen at /home/user) and TMPDIR inside the run's folder
// RUN_DIR, where the admin and extension folders are made. The workspace
// handed to the engine is the working folder. stdin: one JSON line per
// case, {"id", "given"}; stdout:
// a hello line, then one answer line per case. Nothing of a case is ever
// executed: commands and paths are strings handed to the engine's check.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const core = process.argv[2];
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const mod = (p) => import(pathToFileURL(path.join(core, 'dist', 'src', p)).href);

const workspace = process.cwd();
const root = process.argv[3] ?? path.dirname(workspace);
const home = os.homedir();
const adminDir = path.join(root, 'admin', 'policies');
const extRoot = path.join(root, 'extensions');
const userDir = path.join(home, '.gemini', 'policies');

const adaptations = [];
const { PolicyEngine } = await mod('policy/policy-engine.js');
const config = await mod('policy/config.js');
const { Storage } = await mod('config/storage.js');
const { NoopSandboxManager } = await mod('services/sandboxManager.js');
const { debugLogger } = await mod('utils/debugLogger.js');
const { coreEvents } = await mod('utils/events.js');
const shell = await mod('utils/shell-utils.js');
if (typeof shell.initializeShellParsers === 'function') {
  await shell.initializeShellParsers();
}
Storage.getSystemPoliciesDir = () => adminDir;
adaptations.push('Storage.getSystemPoliciesDir → the run\'s admin folder');
adaptations.push(`the workspace is ${workspace}, the home folder ${home}`);
if (typeof process.getuid === 'function' && process.getuid() !== 0) {
  adaptations.push('not root: the release skips admin files with a security warning');
}

// Recorders: every debug line and console call, every feedback event.
let lines = [];
let feedback = [];
const record = (...args) => {
  lines.push(args.map((a) => (typeof a === 'string' ? a : String(a))).join(' '));
};
for (const m of ['debug', 'log', 'warn', 'error', 'info']) {
  debugLogger[m] = record;
  console[m] = record;
}
coreEvents.emitFeedback = (severity, message) => {
  feedback.push({ severity, message: String(message) });
};
globalThis.__deskcheckStandIns.arm();

const MODES = ['plan', 'default', 'autoEdit', 'yolo'];

function refill(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
}

function policySettings(settings = {}) {
  const s = {};
  if (settings.tools) s.tools = { ...settings.tools };
  if (settings.mcp) s.mcp = { ...settings.mcp };
  if (settings.mcpServers) s.mcpServers = settings.mcpServers;
  s.disableAlwaysAllow = !!(settings.security?.disableAlwaysAllow || settings.admin?.secureModeEnabled);
  return s;
}

function message(r, mode, persist) {
  const idx = MODES.indexOf(r.answeredIn ?? mode);
  const m = {
    type: 'update-policy',
    toolName: r.mcpServer && r.allTools ? `mcp_${r.mcpServer}_*` : r.tool,
    persist,
    modes: idx === -1 ? undefined : MODES.slice(idx),
  };
  if (persist) m.persistScope = 'user';
  if (r.mcpServer) m.mcpName = r.mcpServer;
  if (r.commandPrefix !== undefined) m.commandPrefix = r.commandPrefix;
  else if (r.filePath !== undefined) m.argsPattern = `\\\\0${escapeRegex(`"file_path":${JSON.stringify(r.filePath)}`)}\\\\0`;
  return m;
}

function escapeRegex(text) {
  return text.replace(/[-[\]{}()*+?.,\\^$|#\s"]/g, '\\$&');
}

async function build(given, settings) {
  const mode = given.mode ?? 'default';
  const interactive = given.interactive ?? true;
  const cfg = await config.createPolicyEngineConfig(settings, mode, undefined, interactive);
  return new PolicyEngine({
    ...cfg,
    approvalMode: mode,
    disableAlwaysAllow: settings.disableAlwaysAllow,
    sandboxManager: new NoopSandboxManager({ workspace }),
    isTrustedFolder: () => given.trustedFolder ?? true,
  });
}

function bus() {
  const b = { handlers: [] };
  b.subscribe = (_type, fn) => b.handlers.push(fn);
  b.publish = async (m) => {
    for (const h of b.handlers) await h(m);
  };
  return b;
}

async function settle(file, want) {
  // The release persists on a queue of its own, through the thread pool:
  // wait until the file holds the answers. Turns of the event loop first;
  // then, as a loaded machine's thread pool can take longer, turns that
  // leave it time to write. A persistence that failed says so in the
  // feedback; an answer the release skipped was not counted in want.
  for (let i = 0; i < 5000 + 3000; i++) {
    try {
      const text = fs.readFileSync(file, 'utf8');
      if ((text.match(/\[\[rule\]\]/g) ?? []).length >= want) return;
    } catch {
      // not written yet
    }
    if (feedback.some((f) => f.message.startsWith('Failed to persist'))) return;
    await new Promise((r) => (i < 5000 ? setImmediate(r) : setTimeout(r, 1)));
  }
}

// skippedBy says whether publishing an answer made the release skip it
// (no rule, nothing persisted): a sensitive tool without a pattern, or an
// unsafe pattern.
function skippedBy(linesBefore, feedbackBefore) {
  return (
    lines.slice(linesBefore).some((l) => l.includes('Skipping.')) ||
    feedback.slice(feedbackBefore).some((f) => f.message.startsWith('Invalid or unsafe regular expression'))
  );
}

async function runCase(given) {
  lines = [];
  feedback = [];
  globalThis.__deskcheckStandIns.take();
  refill(userDir);
  refill(adminDir);
  fs.rmSync(extRoot, { recursive: true, force: true });
  const counts = {};
  const extensions = new Map();
  for (const p of given.policies ?? []) {
    counts[p.tier] = (counts[p.tier] ?? 0) + 1;
    const name = p.file ?? (counts[p.tier] > 1 ? `${p.tier}${counts[p.tier]}.toml` : `${p.tier}.toml`);
    let dir = p.tier === 'admin' ? adminDir : userDir;
    if (p.tier === 'extension') {
      const ext = p.extension ?? 'ext';
      dir = path.join(extRoot, ext);
      if (!extensions.has(ext)) {
        refill(dir);
        extensions.set(ext, dir);
      }
    }
    fs.writeFileSync(path.join(dir, name), p.toml ?? p.text, { mode: 0o644 });
  }
  const settings = policySettings(given.settings);
  const remembered = given.remembered ?? [];
  const saved = remembered.filter((r) => r.scope === 'saved');
  if (saved.length > 0) {
    const first = await build(given, settings);
    const b = bus();
    config.createPolicyUpdater(first, b, new Storage(workspace));
    let want = 0;
    for (const r of saved) {
      const linesBefore = lines.length;
      const feedbackBefore = feedback.length;
      await b.publish(message(r, given.mode ?? 'default', true));
      if (!skippedBy(linesBefore, feedbackBefore)) want++;
    }
    if (want > 0) await settle(path.join(userDir, 'auto-saved.toml'), want);
    feedback = [];
  }
  const engine = await build(given, settings);
  for (const [name, dir] of extensions) {
    const { rules } = await config.loadExtensionPolicies(name, dir);
    for (const r of rules) engine.addRule(r);
  }
  const b = bus();
  config.createPolicyUpdater(engine, b, new Storage(workspace));
  for (const r of remembered.filter((x) => x.scope !== 'saved')) {
    await b.publish(message(r, given.mode ?? 'default', false));
  }
  const problems = feedback.slice();
  lines = [];
  const call = { name: given.tool };
  if (Object.prototype.hasOwnProperty.call(given, 'args')) call.args = given.args;
  const res = await engine.check(call, given.server, given.annotations, given.subagent);
  return { res, problems, interactive: given.interactive ?? true };
}

function heuristics(debug) {
  const out = new Set();
  for (const l of debug) {
    if (l.includes('but YOLO mode is active')) out.add('dangerous-yolo');
    else if (l.includes('evaluated as dangerous')) out.add('dangerous');
    if (l.includes('known safe, overriding ASK_USER to ALLOW')) out.add('known-safe');
    if (l.includes('Downgrading ALLOW to ASK_USER for redirected command')) out.add('redirection');
    if (l.includes('Git command evaluated in untrusted workspace')) out.add('untrusted-git');
    if (l.includes('Command working directory is outside workspace') || l.includes('dir_path evaluated outside workspace') ||
      (l.includes('Additional permission path') && l.includes('outside workspace'))) out.add('outside-workspace');
    if (l.includes('Command parsing failed') || l.includes('Parsing failed for restricted rule')) out.add('parse-failed');
    if (l.includes('is a build file')) out.add('build-file');
  }
  return [...out].sort();
}

function subcommands(debug) {
  for (const l of debug) {
    const m = l.match(/Validating shell command: (\d+) parts/);
    if (m) return Number(m[1]);
  }
  return null;
}

function ruleOf(r) {
  if (!r) return null;
  const o = { source: r.source, priority: r.priority, decision: r.decision, toolName: r.toolName };
  if (r.denyMessage !== undefined) o.denyMessage = r.denyMessage;
  return o;
}

function outcome(decision, interactive) {
  if (decision === 'allow') return 'allowed';
  if (decision === 'ask_user' && interactive) return 'asks';
  return 'refused';
}

const pkg = JSON.parse(fs.readFileSync(path.join(core, 'package.json'), 'utf8'));
out({ hello: 'deskcheck gemini harness', release: pkg.version, node: process.version, adaptations });

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let id = null;
  try {
    const req = JSON.parse(line);
    id = req.id;
    const { res, problems, interactive } = await runCase(req.given);
    const touched = globalThis.__deskcheckStandIns.take();
    if (touched.length > 0) {
      out({ id, error: `touched a stand-in: ${[...new Set(touched)].slice(0, 5).join(', ')}` });
      continue;
    }
    out({
      id,
      decision: res.decision,
      outcome: outcome(res.decision, interactive),
      rule: ruleOf(res.rule),
      heuristics: heuristics(lines),
      subcommands: subcommands(lines),
      policyErrors: problems.filter((p) => p.severity !== 'warning').length,
      policyWarnings: problems.filter((p) => p.severity === 'warning').length,
      policyMessages: problems.map((p) => p.message),
    });
  } catch (e) {
    out({ id, error: String(e && e.stack ? e.stack : e) });
  }
}
