// What the page's modules share, in one place: the runtime, the firmware's glue and its
// store once boot() (page.js) has loaded them, the key layout booted, and the count of
// calls into Python. Everything else is kept by the one module whose job it is: frames
// (frames.js), keys (keybind.js), after a key (keypath.js), texts and the status line
// (texts.js), the beeper (beeper.js), the club night (clubpage.js), camera mode
// (cammode.js), the test hooks (hooks.js).
export const fw = {
  mp: null, // the MicroPython runtime (micropython.mjs): its memory, its files; null until boot
  web: null, // web/webmain.py as counted() wraps it; null until boot (a key then does nothing)
  store: null, // the durable store the firmware's files are in (durable.js); null until boot
  layout: "keypad", // the key layout booted (page.js start()): "keypad" or "buttons"
  calls: 0, // calls into Python so far (webmain.py, webcamera.py): one per key
};

// A Python module as the page calls it: its functions, each call counted in fw.calls (the
// test of one call per key reads the count: window.s66.calls()); other attributes as they are.
export function counted(module) {
  return new Proxy(module, {
    get(target, name) {
      const value = target[name];
      if (typeof value !== "function") return value;
      return (...args) => {
        fw.calls++;
        return value(...args);
      };
    },
  });
}
