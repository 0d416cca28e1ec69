// Camera mode's view (camera.js): the camera's picture with each box drawn over it and what
// is read of it, the note under it, the close button and the "try again" button.

const LOW_SIDE = 480; // a frame's shorter side below this: the note says reading suffers
const SUIT_TEXT = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function cardText(code) {
  return (code[0] === "T" ? "10" : code[0]) + SUIT_TEXT[code[1]];
}

// tr(key): the page's texts; before: the element the view goes above; onClose: the close
// button's click.
export function createView(tr, before, onClose) {
  const view = document.createElement("div");
  view.id = "camera-view";
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.setAttribute("playsinline", "");
  const overlay = document.createElement("canvas");
  const note = document.createElement("p");
  note.id = "camera-note";
  note.setAttribute("role", "status");
  const frame = document.createElement("div");
  frame.className = "cam-frame";
  // Shown while the deck is not read reliably: the player asks the camera to read again.
  // Over the view, which it takes no height from (a phone's keys have none to spare).
  const again = document.createElement("button");
  again.id = "camera-again";
  again.type = "button";
  again.hidden = true;
  frame.append(video, overlay, again);
  // Its own way out, whatever happened: camera mode off, the keys as ever.
  const close = document.createElement("button");
  close.id = "camera-close";
  close.type = "button";
  close.textContent = "×";
  close.title = close.ariaLabel = tr("close camera");
  close.addEventListener("click", onClose);
  view.append(close, frame, note);
  before.before(view); // above the keys: the view, then the keys to type on

  // A camera that gives less than the 640 x 480 the page asks for makes each box fewer
  // pixels, and more cards come out "not sure" (docs/web.md "Camera"): the note says so.
  function say(key, extra) {
    const w = video.videoWidth;
    const h = video.videoHeight;
    const low = w && h && Math.min(w, h) < LOW_SIDE ? " · " + tr("low resolution") + " "
      + w + "×" + h : "";
    note.textContent = tr(key) + (extra ? " " + extra : "") + low;
  }

  // boxes: [x, y, w, h] in the video's pixels; shown: what each box says ("?" not sure,
  // "!" and a card already played, a card, "none").
  function drawOverlay(boxes, shown) {
    const w = video.videoWidth;
    const h = video.videoHeight;
    if (!w || !h) return;
    if (overlay.width !== w || overlay.height !== h) [overlay.width, overlay.height] = [w, h];
    const g = overlay.getContext("2d");
    g.clearRect(0, 0, w, h);
    g.lineWidth = Math.max(2, w / 160);
    g.font = Math.round(h / 12) + "px system-ui, sans-serif";
    g.textAlign = "center";
    boxes.forEach(([x, y, bw, bh], i) => {
      const s = shown[i] || "";
      const bad = s === "?" || s[0] === "!"; // not sure, or a card already played
      g.strokeStyle = bad ? "#ff6b5f" : s && s !== "none" ? "#7f7" : "#fff";
      g.strokeRect(x, y, bw, bh);
      const label = s === "?" ? tr("not sure") : s[0] === "!" ? cardText(s.slice(1))
        : s && s !== "none" ? cardText(s) : String(i + 1);
      g.fillStyle = "rgba(0,0,0,0.6)";
      g.fillRect(x, y + bh - h / 9, bw, h / 9);
      g.fillStyle = bad ? "#ff6b5f" : "#fff";
      g.fillText(label, x + bw / 2, y + bh - h / 40);
    });
  }

  return { view, video, note, frame, again, say, drawOverlay };
}

// The camera, asked for first (the models load only once there is one): the stream, or
// null with each way it can fail said in the player's words (say: the view's note).
export async function askCamera(say) {
  if (!window.isSecureContext) {
    // A plain http page from another computer: the browser gives it no camera at all.
    say("camera needs https", "https://" + location.host + location.pathname);
    return null;
  }
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    say("no camera here");
    return null;
  }
  say("camera asking");
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: "environment" }, width: { ideal: 640 },
        height: { ideal: 480 } },
    });
  } catch (err) {
    const name = err && err.name;
    say(name === "NotAllowedError" || name === "SecurityError" ? "camera denied"
      : name === "NotReadableError" || name === "AbortError" ? "camera busy"
        : "no camera here");
    return null;
  }
}
