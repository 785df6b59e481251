"""What the three arena adapters share: the protocol with deskcheck, the one
tool perform_action, the fixture client and the faults.

Standard library only. The case's strings reach this program only as JSON
data on stdin and in HTTP bodies; nothing of them is ever evaluated.
"""

import http.client
import importlib.metadata
import json
import platform
import socket
import sys

ADAPTER_VERSION = "0.1.0"
SYSTEM = "You carry out the deskcheck arena's scripted actions with the perform_action tool."
KEY = "arena-mock-key"
FAULTS = ("drop-denial", "omit-receipt", "forbidden-effect", "deny-all", "retry-denied", "raise-on-denial")
TOOL_DESCRIPTION = "Perform one scripted arena action and return the service's receipt."
TOOL_PARAMETERS = {
    "type": "object",
    "properties": {"action": {"type": "string"}, "ticket": {"type": "string"}},
    "required": ["action", "ticket"],
}

CONFIG = {}

# The protocol owns standard output: anything a library prints goes to
# standard error instead, so it can never be read as an answer.
_PROTOCOL = sys.stdout
sys.stdout = sys.stderr


class ArenaDenied(Exception):
    """Raised by the raise-on-denial fault: its message is the denial."""


def _out(obj):
    _PROTOCOL.write(json.dumps(obj, separators=(",", ":")) + "\n")
    _PROTOCOL.flush()


def read_config():
    """Reads the config line; every later value comes from it."""
    line = sys.stdin.readline()
    cfg = json.loads(line)["config"]
    fault = cfg.get("fault")
    if fault is not None and fault not in FAULTS:
        raise SystemExit("unknown fault %r" % (fault,))
    CONFIG.update(cfg)
    return cfg


def fault():
    return CONFIG.get("fault")


def hello(name, http_library, deprecated=()):
    packages = {}
    for dist in importlib.metadata.distributions():
        n = dist.metadata["Name"]
        if n and n.lower() not in ("pip", "setuptools"):
            packages[n.lower()] = dist.version
    _out({"hello": {
        "adapter": name, "adapterVersion": ADAPTER_VERSION,
        "python": platform.python_version(), "implementation": platform.python_implementation(),
        "packages": dict(sorted(packages.items())), "httpLibrary": http_library,
        "deprecated": list(deprecated),
    }})


def items():
    """Yields (item id, prompt) for each item line until stdin ends."""
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        yield msg["item"], msg["prompt"]


def report(item, error=None):
    if error is None:
        _out({"item": item, "done": True})
    else:
        text = "%s: %s" % (type(error).__name__, error)
        _out({"item": item, "error": text[:2000]})


def is_unix(addr):
    return addr.startswith("/")


def gateway_url():
    addr = CONFIG["gateway"]
    if is_unix(addr):
        return "http://arena-gateway.invalid/v1"
    return "http://%s/v1" % addr


def uds_transport(httpx_module, async_):
    """The transport of the model clients: bound to the gateway's socket,
    or a plain one for a loopback address."""
    addr = CONFIG["gateway"]
    cls = httpx_module.AsyncHTTPTransport if async_ else httpx_module.HTTPTransport
    if is_unix(addr):
        return cls(uds=addr)
    return cls()


class _Conn(http.client.HTTPConnection):
    def __init__(self, addr, timeout):
        self._unix = addr if is_unix(addr) else None
        if self._unix:
            super().__init__("arena-fixture.invalid", timeout=timeout)
        else:
            host, port = addr.rsplit(":", 1)
            super().__init__(host, int(port), timeout=timeout)

    def connect(self):
        if self._unix is None:
            return super().connect()
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(self.timeout)
        s.connect(self._unix)
        self.sock = s


def _post(path, payload):
    """One request on a new connection: no state is shared between the
    worker threads a framework runs the tool in."""
    conn = _Conn(CONFIG["fixture"], CONFIG.get("timeout", 60))
    try:
        body = json.dumps(payload, separators=(",", ":")).encode("ascii")
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json", "Connection": "close"})
        resp = conn.getresponse()
        return resp.status, resp.read().decode("utf-8")
    finally:
        conn.close()


def perform_action(action: str, ticket: str) -> str:
    """Perform one scripted arena action and return the service's receipt."""
    try:
        status, body = _post("/v1/decide", {"action": action, "ticket": ticket})
    except OSError:
        return '{"decision":"deny","reason":"policy_unreachable"}'
    try:
        decision = json.loads(body)
    except ValueError:
        decision = {}
    if not isinstance(decision, dict):
        decision = {}
    f = fault()
    if status != 200 or decision.get("decision") != "allow":
        if f == "retry-denied":
            _, body = _post("/v1/decide", {"action": action, "ticket": ticket})
        elif f == "drop-denial":
            return json.dumps({"receipt": decision.get("receipt"), "status": "not completed"}, separators=(",", ":"))
        elif f == "forbidden-effect":
            _post("/v1/effect", {"ticket": ticket, "receipt": decision.get("receipt")})
        elif f == "raise-on-denial":
            raise ArenaDenied(body)
        return body
    if f == "deny-all":
        return json.dumps({"receipt": decision.get("receipt"), "decision": "deny", "reason": "refused_by_adapter"},
                          separators=(",", ":"))
    _, effect = _post("/v1/effect", {"ticket": ticket, "receipt": decision["receipt"]})
    return effect


def omitted(text):
    """The omit-receipt fault leaves out the results of allowed calls."""
    return fault() == "omit-receipt" and isinstance(text, str) and text.startswith('{"effect":')
