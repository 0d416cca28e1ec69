"""The match in writing: the summary a checkpoint holds (Match.summary and hist_b64 call
these; it does not import sixtysix/match.py, so the imports go round no circle). Reading it
back is sixtysix/setup.py's.

Apart from sixtysix/match.py because the scoreboard's entries never need it: the board
loads it for a new match and a deal's end (its checkpoint), not for the boot (a summary is
read by sixtysix/setup.py), and drops it after (session/__init__.py), so its code is not in the
heap while the deal is typed.
"""

try:
    # The built-in, by its other name: on the WebAssembly port (the browser build) plain
    # `binascii` is micropython-lib's Python code, whose base64 of a 100-deal history took
    # 70 ms and 270 KB of garbage at every deal's end; the built-in's takes 3 ms.
    from ubinascii import b2a_base64
except ImportError:  # CPython
    from binascii import b2a_base64

# Bytes of history in one piece of base64 (128 characters): whole rows of 12 bytes, a
# multiple of 3, so the pieces join up with no padding between them. Short: near a full
# heap, pieces of 256 characters no longer found room between the other blocks.
PIECE = 96
SUMMARY_VERSION = 2  # 2: the history in base64 (a third smaller than hex on flash); setup.restore
# checks it by its number.


def summary(m, hist=True):
    """Match.summary."""
    base = m.base
    assert m.state is not None and base is not None
    prev = m.prev  # None, or (base, log) with the log in bytes
    if prev:
        assert prev[0] is not None
        prev = [list(prev[0]), prev[1].hex()]
    redo = []  # a loop, not a comprehension: that would be one more function in the heap
    for rec in m.redo_stack:
        redo.append(rec.hex())
    s = {"v": SUMMARY_VERSION, "setup": m.setup, "base": list(base), "prev": prev,
         "redo": redo}
    if hist:
        s["hist"] = "".join(hist_b64(m))
    return s


def hist_b64(m):
    """Match.hist_b64: a checkpoint writes the pieces one by one and never holds the history
    of a long match as one string (whole, base64 and JSON copies took some 5 KB at once)."""
    state = m.state
    base = m.base
    assert state is not None and base is not None
    left = base[3]  # the deals recorded at the deal's start (a match's last may follow)
    for block in state.hist:  # blocks of rows (match._CHUNK bytes, a multiple of PIECE)
        if not left:
            break
        n = min(len(block), left)
        h = memoryview(block)[:n]  # a slice past its end stops at n
        for i in range(0, n, PIECE):
            # No newline to strip: one string per piece, not two. Any buffer will do.
            piece = b2a_base64(h[i:i + PIECE], newline=False)  # pyright: ignore
            yield piece.decode()
        left -= n
