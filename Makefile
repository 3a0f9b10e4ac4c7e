# Tribo build. `make` builds the two WebAssembly builds and the native library;
# `make test` sets up what is missing, builds, and runs every test; `make demo` serves the demo.

CC      ?= gcc
EMCC    ?= emcc
# Debian's emcc needs acorn from Debian's node modules when the machine's node is not Debian's.
export NODE_PATH := /usr/share/nodejs

SRC      := $(shell find src -name '*.c' | sort)
HDR      := $(shell find src -name '*.h' | sort)
CFLAGS_COMMON := -std=c11 -Wall -Wextra -Wshadow -ffp-contract=off -Isrc
NATIVE_CFLAGS := $(CFLAGS_COMMON) -O2 -g -msse2 -DTB_THREADS -pthread
ASAN_CFLAGS   := $(CFLAGS_COMMON) -O1 -g -msse2 -DTB_THREADS -pthread -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

WASM_FLAGS := $(CFLAGS_COMMON) -O3 -msimd128 -sMODULARIZE -sEXPORT_ES6 -sEXPORT_NAME=createTribo \
  -sALLOW_MEMORY_GROWTH -sDYNAMIC_EXECUTION=0 -sENVIRONMENT=web,worker,node -sFILESYSTEM=0 -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 \
  -sEXPORTED_FUNCTIONS=@tools/exports.txt -sEXPORTED_RUNTIME_METHODS=UTF8ToString,wasmMemory \
  -sINITIAL_MEMORY=33554432 --profiling-funcs
WASM_MT_FLAGS := -pthread -DTB_THREADS -DTB_MAX_WORKERS=4 -sPTHREAD_POOL_SIZE=4

TESTS_C  := $(sort $(wildcard tests/c/test_*.c))
TEST_BIN := $(patsubst tests/c/%.c,build/tests/%,$(TESTS_C))
ASAN_BIN := $(patsubst tests/c/%.c,build/asan/%,$(TESTS_C))

.PHONY: all wasm native web test test-c test-js test-browser test-types asan demo bench deps deps-browser clean check-simd bench-collision

all: wasm native web

deps:
	@bash tools/setup.sh
deps-browser:
	@bash tools/setup.sh --browser

wasm: dist/tribo_simd.mjs dist/tribo_mt.mjs

dist/tribo_simd.mjs: $(SRC) $(HDR) tools/exports.txt Makefile
	@mkdir -p dist
	$(EMCC) $(WASM_FLAGS) $(SRC) -o $@
	node tools/node_variant.mjs $@

dist/tribo_mt.mjs: $(SRC) $(HDR) tools/exports.txt Makefile
	@mkdir -p dist
	$(EMCC) $(WASM_FLAGS) $(WASM_MT_FLAGS) $(SRC) -o $@
	node tools/node_variant.mjs $@

native: build/libtribo.a

build/obj/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(NATIVE_CFLAGS) -c $< -o $@

build/libtribo.a: $(patsubst src/%.c,build/obj/%.o,$(SRC))
	ar rcs $@ $^

build/tests/%: tests/c/%.c build/libtribo.a tests/c/test_util.h tests/c/test_random.h tests/c/compliant_model.h tests/c/trajectory_expected.inc
	@mkdir -p build/tests
	$(CC) $(NATIVE_CFLAGS) $< build/libtribo.a -lm -o $@

build/asan/%: tests/c/%.c $(SRC) $(HDR) tests/c/test_util.h
	@mkdir -p build/asan
	$(CC) $(ASAN_CFLAGS) $< $(SRC) -lm -o $@

web: wasm
	@[ -f web/build.mjs ] && node web/build.mjs || true

# The wasm builds must contain real v128 instructions in the solver's hot loop.
check-simd: wasm
	@node tools/check_simd.mjs dist/tribo_simd.wasm dist/tribo_mt.wasm

# The same world test built with the scalar SIMD back end must print the same pile checksum.
build/scalar/test_world: tests/c/test_world.c $(SRC) $(HDR) tests/c/test_util.h
	@mkdir -p build/scalar
	$(CC) $(NATIVE_CFLAGS) -DTB_SIMD_SCALAR $< $(SRC) -lm -o $@

test-c: $(TEST_BIN) build/scalar/test_world
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; $$t; done
	@a=$$(build/tests/test_world | grep 'pile checksum'); b=$$(build/scalar/test_world | grep 'pile checksum'); \
	  echo "sse2 $$a / scalar $$b"; [ "$$a" = "$$b" ] || { echo "FAIL: SIMD back ends disagree"; exit 1; }

asan: $(ASAN_BIN)
	@set -e; for t in $(ASAN_BIN); do echo "== $$t (asan+ubsan)"; ASAN_OPTIONS=detect_leaks=1 $$t; done

test-js: wasm
	node --test --test-concurrency=1 tests/js/

# The TypeScript declarations compile, and a user's program type-checks against them.
test-types:
	npx tsc --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext js/index.d.ts tests/types/usage.ts

test-browser: all
	node --test --test-concurrency=1 tests/browser/

test: deps-browser
	$(MAKE) all
	$(MAKE) check-simd
	$(MAKE) test-c
	$(MAKE) asan
	$(MAKE) test-types
	$(MAKE) test-js
	$(MAKE) test-browser

demo: deps
	$(MAKE) all
	node web/server.mjs

bench: deps
	$(MAKE) all native
	node bench/run.mjs

# Narrow-phase pair test rates of the mesh and heightfield routines (bench/mesh_bench.c).
.PHONY: bench-mesh
bench-mesh: build/libtribo.a bench/mesh_bench.c
	@mkdir -p build
	$(CC) $(NATIVE_CFLAGS) bench/mesh_bench.c build/libtribo.a -lm -o build/mesh_bench
	build/mesh_bench

# Collision micro-benchmarks (native): prints the "Collision" section and replaces it in bench/RESULTS.md.
build/collision_bench: bench/collision_bench.c build/libtribo.a
	$(CC) $(NATIVE_CFLAGS) $< build/libtribo.a -lm -o $@

bench-collision: build/collision_bench
	@build/collision_bench > build/collision_bench.md
	@cat build/collision_bench.md
	@awk '/^## Collision$$/{exit} {print}' bench/RESULTS.md > build/results.tmp && cat build/collision_bench.md >> build/results.tmp && mv build/results.tmp bench/RESULTS.md

clean:
	rm -rf build dist/*.mjs dist/*.wasm dist/*.js web/bundle

# -- filtering: broad-phase benchmark (native, one thread; figures in bench/RESULTS.md "Collision: broad phase")
.PHONY: bench-broadphase
bench-broadphase: build/libtribo.a
	@mkdir -p build
	$(CC) $(NATIVE_CFLAGS) bench/broadphase_bench.c build/libtribo.a -lm -o build/broadphase_bench
	build/broadphase_bench
