"""Refusals: every entry the core will not accept raises Refused with a code.

The codes are short stable words; the UI translates them into a message on
screen. docs/events.md lists them all.
"""


class Refused(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code
