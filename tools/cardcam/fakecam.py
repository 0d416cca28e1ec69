"""A fake camera for Chromium: a .y4m video of a deal's tricks laid in their boxes.

    write_deal_video(path, deck, tricks, seed)   # tricks: [["QH", "KH"], ...] in play order

Chromium plays the file as the camera with --use-fake-device-for-media-stream
--use-file-for-fake-video-capture=FILE (and loops it). Each trick: the bare cloth, the
cards sliding in, held still, taken away. A .y4m is a one-line header and then per frame
"FRAME\\n" with its Y, U and V planes (4:2:0, full range as JPEG's).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenes  # noqa: E402

FPS = 10
SIZE = (640, 480)  # what the page asks a phone's camera for (web/camera.js)
EMPTY, MOVE, HELD, AWAY = 6, 3, 25, 3  # frames of each part of a trick


def yuv420(img):
    """PIL RGB (even width and height) -> the Y, U, V planes' bytes (BT.601, full range)."""
    a = np.asarray(img, np.float32)
    r, g, b = a[..., 0], a[..., 1], a[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    u = -0.168736 * r - 0.331264 * g + 0.5 * b + 128
    v = 0.5 * r - 0.418688 * g - 0.081312 * b + 128

    def half(p):
        return (p[0::2, 0::2] + p[1::2, 0::2] + p[0::2, 1::2] + p[1::2, 1::2]) / 4

    return b"".join(np.clip(np.rint(p), 0, 255).astype(np.uint8).tobytes()
                    for p in (y, half(u), half(v)))


def write_y4m(path, frames, fps=FPS):
    frames = iter(frames)
    first = next(frames)
    w, h = first.size
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg\n" % (w, h, fps))
        f.write(b"FRAME\n" + yuv420(first))
        for img in frames:
            f.write(b"FRAME\n" + yuv420(img))


def deal_frames(deck, tricks, seed, size=SIZE, held=HELD, moved=False, bare=EMPTY):
    """The frames of a deal's tricks, in order (PIL RGB). moved: while held, the cards are
    moved about in their boxes, each frame a placement of its own (teaching a deck:
    web/camteach.js asks the player to). bare: frames of bare cloth before each trick."""
    rng = np.random.default_rng(seed)
    for cards in tricks:
        trick_rng = np.random.default_rng([seed, len(cards), rng.integers(1 << 30)])
        state = trick_rng.bit_generator.state

        def frame(present, cards=cards, state=state):
            # the same cloth, light and card positions throughout one trick
            r = np.random.default_rng()
            r.bit_generator.state = state
            return scenes.trick_frame(r, deck, cards, size[0], size[1], present=present,
                                      mild=True)[0]

        empty = frame([0.0] * len(cards))
        for _ in range(bare):
            yield empty
        for i in range(1, MOVE + 1):
            yield frame([1 - (MOVE + 1 - i) / (MOVE + 1)] * len(cards))
        still = frame(None)
        for k in range(held):
            if moved and k:
                yield scenes.trick_frame(np.random.default_rng([seed, int(rng.integers(1 << 30))]),
                                         deck, cards, size[0], size[1], mild=True)[0]
            else:
                yield still
        for i in range(1, AWAY + 1):
            yield frame([1 - i / (AWAY + 1)] * len(cards))


def write_deal_video(path, deck, tricks, seed, size=SIZE, held=HELD, moved=False,
                     bare=EMPTY):
    write_y4m(path, deal_frames(deck, tricks, seed, size, held, moved, bare))


def loop_seconds(tricks, held=HELD, bare=EMPTY):
    """How long the video of that many tricks plays before Chromium starts it again."""
    return tricks * (bare + MOVE + held + AWAY) / FPS
