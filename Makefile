# Lanescope: the two commands of the README's quick start are `make run` and `make test`.
BUILD ?= build
BUILD_ASAN ?= build-asan
CMAKE_FLAGS ?=
SAMPLE := $(BUILD)/sample/synthetic_kineto_rmsnorm.trace.json

.PHONY: all deps configure build run test bench test-asan clean sample

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
	$(BUILD)/app/lanescope-cli generate-sample -o $(SAMPLE)

run: sample
	$(BUILD)/app/lanescope $(SAMPLE)

test: build
	QT_QPA_PLATFORM=offscreen ctest --test-dir $(BUILD) --output-on-failure -j2

bench: build
	bash tests/bench/run-benchmarks.sh $(BUILD)

test-asan: deps
	cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLANESCOPE_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD_ASAN)
	QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir $(BUILD_ASAN) --output-on-failure -j2

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
