# Lanescope: the two commands of the README's quick start are `make run` and `make test`.
BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
BUILD_FUZZ_CI ?= build-fuzz-ci
FUZZ_SECONDS ?= 60
CMAKE_FLAGS ?=
SAMPLE := $(BUILD)/sample/synthetic_rmsnorm_profile

.PHONY: all deps configure build run test bench test-asan fuzz fuzz-build clean sample package

all: build

deps:
	@bash packaging/install-deps-debian.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD)

sample: build
	@mkdir -p $(BUILD)/sample
	$(BUILD)/app/lanescope-cli generate-sample --folder $(BUILD)/sample

run: sample
	$(BUILD)/app/lanescope $(SAMPLE)

test: build
	QT_QPA_PLATFORM=offscreen ctest --test-dir $(BUILD) --output-on-failure -j2

# The Debian package (CPack): $(BUILD)/lanescope_VERSION_ARCH.deb; install with `dpkg -i`.
package: build
	cmake --build $(BUILD) --target package

bench: build
	bash tests/bench/run-benchmarks.sh $(BUILD)

# ASan + UBSan, Debug at -O1 (CMakeLists.txt: the suite runs 2-3x faster than at -O0) with line tables
# only (-g1: reports keep files and lines).
test-asan: deps
	cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLANESCOPE_SANITIZE=ON -DLANESCOPE_BENCHES=OFF -DLANESCOPE_LINE_TABLES_ONLY=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD_ASAN)
	QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir $(BUILD_ASAN) --output-on-failure -j2

# libFuzzer harnesses of tests/fuzz (clang, ASan + UBSan, a separate build), each run FUZZ_SECONDS;
# FUZZ_TARGETS="fuzz_ntff fuzz_neff" runs a subset; FUZZ_RUNS=N stops each after N executions. Findings: $(BUILD_FUZZ)/fuzz/artifacts/.
fuzz:
	@LANESCOPE_WITH_FUZZ=1 bash packaging/install-deps-debian.sh
	cmake -S . -B $(BUILD_FUZZ) -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLANESCOPE_FUZZ=ON
	cmake --build $(BUILD_FUZZ) -j2
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) bash tests/fuzz/run-fuzzers.sh $(BUILD_FUZZ) $(FUZZ_TARGETS)

# Compiles every harness of tests/fuzz without running one (CI: a harness that stops compiling fails
# the build). Debug (-O0) with the fuzz build's ASan + UBSan instrumentation, warnings as errors.
fuzz-build:
	@LANESCOPE_WITH_FUZZ=1 bash packaging/install-deps-debian.sh
	cmake -S . -B $(BUILD_FUZZ_CI) -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DLANESCOPE_FUZZ=ON -DLANESCOPE_WERROR=ON -DLANESCOPE_LINE_TABLES_ONLY=ON
	cmake --build $(BUILD_FUZZ_CI) -j2

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
