# macroscope — the two commands: `make run` and `make test`.
# Both install what a fresh Debian machine lacks (as root, or through sudo),
# configure, build, then run.

BUILD      ?= build
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=
# Debian packages the build, the tests and the benchmarks need.
DEBIAN_PACKAGES := cmake ninja-build g++ clang libclang-rt-14-dev pkg-config \
  libcli11-dev libboost-dev libabsl-dev nlohmann-json3-dev libsqlite3-dev libzstd-dev libcpp-httplib-dev \
  libgtest-dev libgmock-dev libbenchmark-dev libotf2-trace-dev otf2-tools \
  libbabeltrace2-dev babeltrace2 pajeng libsimgrid-dev time \
  libcairo2-dev chromium lttng-tools liblttng-ust-dev libgraphviz-dev libxxhash-dev python3-barectf \
  libelf-dev valgrind stress-ng gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
  libopenmpi-dev openmpi-bin \
  libtracecmd-dev libtraceevent-dev libtracefs-dev trace-cmd linux-perf sqlite3 libcsv-dev libedit-dev \
  pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest python3-otf2

ifeq ($(CI),true)
CMAKE_ARGS += -DMACROSCOPE_WERROR=ON
endif

.PHONY: all deps build web test run bench fuzz clean
SHELL := /bin/bash

all: build

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DMACROSCOPE_MPI=ON $(CMAKE_ARGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# The web UI (web/): npm ci only when the lockfile is newer than what it
# installed, then the Vite build into web/dist, which `macroscope serve` serves.
web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	cd web && npm ci --no-audit --no-fund

web: web/node_modules/.package-lock.json
	cd web && npm run build

# Every ctest test, then one closing count (tests/summary); the exit code
# is ctest's.
test: build fuzz-check web
	cd $(BUILD) && rc=0 && ctest --output-on-failure -j $(JOBS) --output-junit results.xml || rc=$$?; \
	  $(CURDIR)/tests/summary results.xml; exit $$rc

# The readers under libFuzzer with address and undefined-behaviour
# sanitizers (fuzz/run, fuzz/README.md). fuzz-check, which make test runs:
# every input of the committed corpus once, then a fixed number of runs from
# a fixed seed (the same result for the same commit). fuzz: FUZZ_SECONDS of
# open-ended fuzzing per target, the inputs it finds kept under FUZZ_BUILD.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 600
FUZZERS      := paje_reader_fuzzer chrome_reader_fuzzer csv_reader_fuzzer paraver_reader_fuzzer gstreamer_reader_fuzzer store_reader_fuzzer otf2_reader_fuzzer \
  ctf_reader_fuzzer lackey_reader_fuzzer loops_reader_fuzzer nsys_reader_fuzzer ftrace_reader_fuzzer
.PHONY: fuzz-build fuzz-check
fuzz-build: deps
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DMACROSCOPE_FUZZ=ON -DMACROSCOPE_SANITIZE=ON > /dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZERS)

fuzz-check: fuzz-build
	fuzz/run $(FUZZ_BUILD) check

fuzz: fuzz-build
	fuzz/run $(FUZZ_BUILD) $(FUZZ_SECONDS)

# The bundled example: GStreamer's debug log of a video disturbed by
# stress-ng for a second (docs/case-study-gstreamer.md), as a store; at
# p = 0.025 over 50 slices (raw qualities, as the workbench uses them: 0.52
# normalised) the disturbance is a part of its own; so it is over the 64
# time bins the workbench draws for 50 slices (docs/aggregate.md, --bins).
EXAMPLE   := examples/gstreamer-stressed.store
EXAMPLE_P := 0.025
run: build web
	$(BUILD)/macroscope info $(EXAMPLE)
	$(BUILD)/macroscope overview $(EXAMPLE) --no-cache --slices 50 --p $(EXAMPLE_P) -o $(BUILD)/overview.png
	@echo "overview picture: $(BUILD)/overview.png"
	@echo "the workbench: open the URL printed below (Ctrl-C stops the server)"
	$(BUILD)/macroscope serve $(EXAMPLE) --p $(EXAMPLE_P) --slices 50

bench: build
	bash bench/dump_vs_pjdump
	bash bench/scaling
	BUILD=$(BUILD) bash bench/read_threads
	bash bench/aggregation
	bash bench/loops
	BUILD=$(BUILD) bash bench/serve
	MACROSCOPE=$(BUILD)/macroscope ARCHIVE_WRITER=$(BUILD)/bench/random_otf2_archive \
	  READ_FLOOR=$(BUILD)/bench/otf2_read_floor bash bench/profiles

clean:
	rm -rf $(BUILD)
