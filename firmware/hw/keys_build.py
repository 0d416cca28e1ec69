"""Reading a keypad's layout: boot-only code, apart from the scanner.

hw/keypad.py's Keypad.__init__ imports this for the key names; the boot drops it from RAM
afterwards (parts.py), as its code is heap on the board and runs once.
"""


def key_names(layout, rows, cols):
    """The key names in scan order (row-major) of a keypad with rows x cols keys.

    layout: "123A/456B/789C/*0#D" style string (one character per key, rows split by "/")
    or a sequence of rows, each a sequence of names.
    """
    if isinstance(layout, str):
        layout = layout.split("/")
    if len(layout) != rows or rows * cols > 30:  # 30: a key a bit of a small int
        raise ValueError("layout does not match rows")
    names = []
    for line in layout:
        if len(line) != cols:
            raise ValueError("layout does not match cols")
        for name in line:
            names.append(name)
    return names
