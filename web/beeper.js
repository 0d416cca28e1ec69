// The board's beeper (loop.py make_buzzer) through Web Audio: the same tones, a square
// wave as a piezo on PWM gives, from the table tools/web.py copies out of loop.py into
// the page (data-tones: [frequency Hz, ms] per pattern). The app calls beep() only while
// its sound setting is on (ui/app.py), as on the board. Browsers start audio only after a
// user gesture: the context is made (or resumed) on the first key or tap.
const TONES = JSON.parse(document.body.dataset.tones || "[]");

let audio = null; // the Web Audio context, made on the first key or tap

function unlockAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch (err) {
    console.warn("no audio: " + err);
  }
}
for (const kind of ["pointerup", "keydown", "touchend"]) {
  document.addEventListener(kind, unlockAudio, { capture: true, passive: true });
}

// Pattern kind (its number in the table), as the app asks (webmain.start()'s beep).
export function beep(kind) {
  const tone = TONES[kind];
  if (!tone || !tone[0]) return;
  if (!audio) unlockAudio();
  if (!audio) return;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = "square";
  osc.frequency.value = tone[0];
  gain.gain.value = 0.08;
  osc.connect(gain).connect(audio.destination);
  const at = audio.currentTime;
  osc.start(at);
  osc.stop(at + tone[1] / 1000);
}
