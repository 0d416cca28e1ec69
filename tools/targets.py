"""The design's limits for the figures the bench measures, in one place.

tools/bench.py checks every figure against them and tools/web_figures.py prints its goals;
both read this module, so neither imports the other. Runs under CPython and MicroPython
(the bench's workers import bench.py there).
"""

TARGETS = {
    "trick2_keypad": 3,  # presses per two-player trick
    "trick2_buttons": 6,
    "quick_deal": 3,  # presses per deal in results entry
    "panel_share": 0.25,  # median bytes per press, as a share of a full frame
    "heap_k": 56,  # KiB: MicroPython's initial heap on an ESP32
    "heap_stretch_k": 48,
    "flash_event": 64,  # bytes of flash per journal line
    "web_first_load": 1500000,  # bytes a first visit of the browser build transfers
    "web_key_p95_ms": 16.0,  # one frame of a 60 Hz screen
    "evenings": 40,  # 3-hour evenings on the reference cell (2,000 mAh), no club link
    "evenings_club": 30,  # the same with the club link up
    "wake_frame_ms": 50,  # key to frame after a light sleep
    # camera mode (issue 27, tools/camera_figures.py), on the held-out card design
    "camera_card_accuracy": 0.995,  # cards read right and sure
    "camera_trick_accuracy": 0.99,  # tricks read right, every card sure
    "camera_wrong_tricks": 0,  # tricks that would be proposed with a wrong card
    "camera_proposal_p95_ms": 300.0,  # frame to proposal, CPU throttled x4
    "camera_on_bytes": 3000000,  # bytes loaded when camera mode turns on
    "camera_deal_presses": 12,  # presses per two-player deal with trump and a marriage
    # teaching camera mode a deck (issue 44, tools/camera_teach.py): its 24 cards
    "teach_seconds": 120.0,
    "teach_presses": 30,
}
