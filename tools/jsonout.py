"""A JSON writer whose output is the same under CPython and MicroPython.

MicroPython's dicts do not keep insertion order and its json module formats
differently, so keys are sorted and the layout is fixed here.
"""


def _str(s):
    out = ['"']
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def dumps(obj, indent=0):
    """Sorted keys, two-space indent for dicts, lists of scalars on one line."""
    pad = "  " * indent
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, str):
        return _str(obj)
    if isinstance(obj, (list, tuple)):
        if all(not isinstance(x, (list, tuple, dict)) for x in obj):
            return "[" + ", ".join([dumps(x) for x in obj]) + "]"
        inner = ",\n".join([pad + "  " + dumps(x, indent + 1) for x in obj])
        return "[\n" + inner + "\n" + pad + "]"
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        keys = sorted(obj)
        inner = ",\n".join([pad + "  " + _str(k) + ": " + dumps(obj[k], indent + 1) for k in keys])
        return "{\n" + inner + "\n" + pad + "}"
    raise TypeError("cannot write %r" % (obj,))
