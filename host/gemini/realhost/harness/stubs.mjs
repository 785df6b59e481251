// Loaded with node --import before the harness. Every bare import of the
// release's policy modules that is not one of the six packages the
// policy code runs on (shell-quote, web-tree-sitter, tree-sitter-bash,
// @iarna/toml, zod, fast-levenshtein) is served by a stand-in module: a
// callable, constructible object whose every property is itself. The
// stand-ins are armed once the modules are loaded; any use of one while a
// case runs is recorded, and the harness reports the case as an error.
import { register } from 'node:module';

const touches = [];
let armed = false;

function standIn(name) {
  const target = function () {};
  const proxy = new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === Symbol.iterator) return function* () {};
      if (armed) touches.push(`${name}.${String(prop)}`);
      return proxy;
    },
    apply() {
      if (armed) touches.push(`${name}()`);
      return proxy;
    },
    construct() {
      if (armed) touches.push(`new ${name}`);
      return proxy;
    },
    set() {
      return true;
    },
  });
  return proxy;
}

globalThis.__deskcheckStandIn = standIn;
globalThis.__deskcheckStandIns = {
  arm() {
    armed = true;
  },
  disarm() {
    armed = false;
  },
  take() {
    return touches.splice(0, touches.length);
  },
};

register('./stub-hooks.mjs', import.meta.url);
