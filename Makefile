# macroscope — the two commands: `make run` and `make test`.
# Both install what a fresh Debian machine lacks (as root, or through sudo),
# configure, build, then run.

BUILD      ?= build
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=
# Debian packages the build, the tests and the benchmarks need.
DEBIAN_PACKAGES := cmake ninja-build g++ clang libclang-rt-14-dev pkg-config \
  libcli11-dev nlohmann-json3-dev libsqlite3-dev libzstd-dev libcpp-httplib-dev \
  libgtest-dev libgmock-dev libbenchmark-dev libotf2-trace-dev otf2-tools \
  libbabeltrace2-dev babeltrace2 pajeng libsimgrid-dev simgrid time

ifeq ($(CI),true)
CMAKE_ARGS += -DMACROSCOPE_WERROR=ON
endif

.PHONY: all deps build test run bench fuzz clean

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
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

run: build
	$(BUILD)/macroscope info examples/pipeline.trace
	$(BUILD)/macroscope dump examples/pipeline.trace | head -20

bench: build
	bash bench/dump_vs_pjdump

clean:
	rm -rf $(BUILD)
