"""Print the lines of one random match; run under either runtime.

    micropython host_tests/mp_match_lines.py "new mariage" 7
"""

import sys

from dealgen import Player

p = Player(sys.argv[1], int(sys.argv[2]))
p.play_match()
for line in p.lines:
    print(line)
