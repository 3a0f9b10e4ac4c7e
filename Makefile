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
ASAN_CFLAGS   := $(CFLAGS_COMMON) -O1 -g -msse2 -DTB_THREADS -pthread -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=undefined,float-cast-overflow

# -mbulk-memory: memset / memcpy as memory.fill / memory.copy (every engine with SIMD128 has bulk
# memory; the pthreads build has it through -pthread). -flto: one module for the optimiser, so a
# stage inlines the helpers of other files (the same bits: -ffp-contract=off, no fast math).
WASM_FLAGS := $(CFLAGS_COMMON) -O3 -msimd128 -sMODULARIZE -sEXPORT_ES6 -sEXPORT_NAME=createTribo \
  -sALLOW_MEMORY_GROWTH -sDYNAMIC_EXECUTION=0 -sENVIRONMENT=web,worker,node -sFILESYSTEM=0 -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 \
  -sEXPORTED_FUNCTIONS=@build/exports.txt -sEXPORTED_RUNTIME_METHODS=UTF8ToString,wasmMemory \
  -sINITIAL_MEMORY=33554432 --profiling-funcs -mbulk-memory -flto
WASM_MT_FLAGS := -pthread -DTB_THREADS -DTB_MAX_WORKERS=4 -sPTHREAD_POOL_SIZE=4

TESTS_C  := $(sort $(wildcard tests/c/test_*.c))
TEST_HDR := $(wildcard tests/c/*.h tests/c/*.inc)
TEST_BIN := $(patsubst tests/c/%.c,build/tests/%,$(TESTS_C))
ASAN_BIN := $(patsubst tests/c/%.c,build/asan/%,$(TESTS_C))
API_HDR  := $(filter src/include/%.h,$(HDR))

.PHONY: all wasm native test test-c test-long test-js test-browser test-types types check-types-fresh asan check-simd demo bench bench-collision bench-mesh bench-broadphase deps deps-browser clean

all: wasm native

deps:
	@bash tools/setup.sh
deps-browser:
	@bash tools/setup.sh --browser

wasm: dist/tribo_simd.mjs dist/tribo_mt.mjs

# -sEXPORTED_FUNCTIONS: every TB_API function of the public headers, and malloc/free.
build/exports.txt: tools/exports.mjs $(API_HDR)
	@mkdir -p build
	node tools/exports.mjs $@ $(API_HDR)

dist/tribo_simd.mjs: $(SRC) $(HDR) build/exports.txt Makefile
	@mkdir -p dist
	$(EMCC) $(WASM_FLAGS) $(SRC) -o $@
	node tools/node_variant.mjs $@

dist/tribo_mt.mjs: $(SRC) $(HDR) build/exports.txt Makefile
	@mkdir -p dist
	$(EMCC) $(WASM_FLAGS) $(WASM_MT_FLAGS) $(SRC) -o $@
	node tools/node_variant.mjs $@

# The simd build with every job of the serial tb_parallel_for called through a pointer the
# optimisers cannot see through (-DTB_PROFILE_JOBS), so that each stage's jobs stay functions of
# their own in a profile (bench/wasm_perf.sh --jobs); slower by a few per cent, never shipped.
build/profile/dist/tribo_simd.mjs: $(SRC) $(HDR) build/exports.txt Makefile
	@mkdir -p $(dir $@)
	$(EMCC) $(WASM_FLAGS) -DTB_PROFILE_JOBS $(SRC) -o $@
	node tools/node_variant.mjs $@
	node tools/web_variant.mjs $@

native: build/libtribo.a

# Three static libraries from the same sources, each object compiled once: native (build/obj),
# sanitizers (build/asan/obj) and the scalar SIMD back end (build/scalar/obj). Each archive is
# rebuilt from scratch so an object whose source was moved or deleted does not linger in it.
build/obj/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(NATIVE_CFLAGS) -c $< -o $@

build/asan/obj/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_CFLAGS) -c $< -o $@

build/scalar/obj/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(NATIVE_CFLAGS) -DTB_SIMD_SCALAR -c $< -o $@

build/libtribo.a: $(patsubst src/%.c,build/obj/%.o,$(SRC))
	@rm -f $@
	ar rcs $@ $^

build/asan/libtribo.a: $(patsubst src/%.c,build/asan/obj/%.o,$(SRC))
	@rm -f $@
	ar rcs $@ $^

build/scalar/libtribo.a: $(patsubst src/%.c,build/scalar/obj/%.o,$(SRC))
	@rm -f $@
	ar rcs $@ $^

build/tests/%: tests/c/%.c build/libtribo.a $(TEST_HDR)
	@mkdir -p build/tests
	$(CC) $(NATIVE_CFLAGS) $< build/libtribo.a -lm -o $@

build/asan/%: tests/c/%.c build/asan/libtribo.a $(TEST_HDR)
	@mkdir -p build/asan
	$(CC) $(ASAN_CFLAGS) $< build/asan/libtribo.a -lm -o $@

# The wasm builds must contain real v128 instructions in the solver's hot loop.
check-simd: wasm
	@node tools/check_simd.mjs dist/tribo_simd.wasm dist/tribo_mt.wasm

# The same world test built with the scalar SIMD back end must print the same pile checksum.
build/scalar/test_world: tests/c/test_world.c build/scalar/libtribo.a $(TEST_HDR)
	@mkdir -p build/scalar
	$(CC) $(NATIVE_CFLAGS) -DTB_SIMD_SCALAR $< build/scalar/libtribo.a -lm -o $@

# The lane helpers' test (tests/c/test_simd.c) with the scalar back end too (header only).
build/scalar/test_simd: tests/c/test_simd.c $(HDR) $(TEST_HDR)
	@mkdir -p build/scalar
	$(CC) $(NATIVE_CFLAGS) -DTB_SIMD_SCALAR $< -lm -o $@

test-c: $(TEST_BIN) build/scalar/test_world build/scalar/test_simd build/tests/long_run
	@set -e; for t in $(TEST_BIN) build/scalar/test_simd; do echo "== $$t"; $$t; done
	@echo "== build/tests/long_run $(SHORT_LONG_RUN) (the long run, shortened)"; build/tests/long_run $(SHORT_LONG_RUN)
	@a=$$(build/tests/test_world | grep 'pile checksum'); b=$$(build/scalar/test_world | grep 'pile checksum'); \
	  echo "sse2 $$a / scalar $$b"; [ "$$a" = "$$b" ] || { echo "FAIL: SIMD back ends disagree"; exit 1; }

# The 1000-body pile, 5000 steps in every preset (tests/c/long_run.c; its header has the
# criterion and the last table). test-c runs it shortened: 300 steps of the pile's lowest three
# layers (108 bodies), about 17 s of CPU natively, most of it kamino's.
SHORT_LONG_RUN := 300 108
LONG_STEPS ?= 5000
build/tests/long_run: tests/c/long_run.c build/libtribo.a $(TEST_HDR)
	@mkdir -p build/tests
	$(CC) $(NATIVE_CFLAGS) $< build/libtribo.a -lm -o $@
test-long: build/tests/long_run
	build/tests/long_run $(LONG_STEPS)

asan: $(ASAN_BIN)
	@set -e; for t in $(ASAN_BIN); do echo "== $$t (asan+ubsan)"; ASAN_OPTIONS=detect_leaks=1 $$t; done

test-js: wasm build/wasm_tests/test_sin_cos.cjs build/wasm_tests/test_simd.cjs
	node build/wasm_tests/test_sin_cos.cjs
	node build/wasm_tests/test_simd.cjs
	node --test --test-concurrency=1 tests/js/

# A C test built with the simd build's compiler, SIMD back end and C library, run in Node: lane
# functions whose wasm code must give the bits of that C library's own (tests/c/test_sin_cos.c).
# .cjs: the emitted script is CommonJS; synchronous compilation: its loader would fetch() the file.
build/wasm_tests/%.cjs: tests/c/%.c $(HDR) $(TEST_HDR)
	@mkdir -p build/wasm_tests
	$(EMCC) $(CFLAGS_COMMON) -O3 -msimd128 -sENVIRONMENT=node -sEXIT_RUNTIME=1 -sWASM_ASYNC_COMPILATION=0 $< -o $@

# js/generated.d.ts (view fields and enum unions) from the built engine's tables.
types: dist/tribo_simd.mjs tools/gen_types.mjs
	node tools/gen_types.mjs js/generated.d.ts

# Fails when the committed js/generated.d.ts differs from what the engine's tables give
# (writes to build/, never to the tracked file).
check-types-fresh: dist/tribo_simd.mjs tools/gen_types.mjs
	@mkdir -p build
	@node tools/gen_types.mjs build/generated.d.ts
	@cmp -s build/generated.d.ts js/generated.d.ts || { diff -u js/generated.d.ts build/generated.d.ts | head -40; \
	  echo "FAIL: js/generated.d.ts is stale: run make types and commit it"; exit 1; }
	@echo "js/generated.d.ts is up to date"

# The TypeScript declarations compile, and a user's program type-checks against them.
test-types:
	npx tsc --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext js/index.d.ts tests/types/usage.ts

test-browser: all
	node --test --test-concurrency=1 tests/browser/

# Layer walls: every #include in src/ against the one table in tools/check_includes.mjs; every
# TB_API function of tribo.h defined in src/api/ (tools/check_api.mjs); and the checks' own tests
# (a planted forbidden include, a planted TB_API definition outside src/api/ fail).
.PHONY: check-includes
check-includes:
	node tools/check_includes.mjs
	node tools/check_api.mjs
	node --test tests/tools/

test: deps-browser
	$(MAKE) check-includes
	$(MAKE) fuzz-smoke
	$(MAKE) all
	$(MAKE) check-simd
	$(MAKE) test-c
	$(MAKE) asan
	$(MAKE) check-types-fresh
	$(MAKE) test-types
	$(MAKE) test-js
	$(MAKE) test-browser
	$(MAKE) test-package

demo: deps
	$(MAKE) all
	node web/server.mjs --open

bench: deps
	$(MAKE) all
	node bench/run.mjs

# Narrow-phase pair test rates of the mesh and heightfield routines (bench/mesh_bench.c).
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
	rm -rf build dist/*.mjs dist/*.wasm dist/*.js

# Broad-phase benchmark (native, one thread; figures in bench/RESULTS.md "Collision: broad phase").
bench-broadphase: build/libtribo.a
	@mkdir -p build
	$(CC) $(NATIVE_CFLAGS) bench/broadphase_bench.c build/libtribo.a -lm -o build/broadphase_bench
	build/broadphase_bench

# ---------------------------------------------------------------------------------------------
# Package: browser variants of the builds (no Node branches, no worker literal bundlers trip on),
# the compat build (wasm inlined, one file), and the package test (npm pack output installed into
# temporary projects: Node, Vite, esbuild, plain pages, cross-origin, <tribo-scene>, tsc).
.PHONY: package-dist test-package
wasm: package-dist
package-dist: dist/tribo_simd.web.mjs dist/tribo_mt.web.mjs

dist/%.web.mjs: dist/%.mjs tools/web_variant.mjs
	node tools/web_variant.mjs $<
package-dist: dist/tribo_compat.mjs

# emcc writes the .wasm next to the .mjs: the .mjs rule makes both.
dist/tribo_simd.wasm: dist/tribo_simd.mjs
dist/tribo_mt.wasm: dist/tribo_mt.mjs

dist/tribo_compat.mjs: js/*.js dist/tribo_simd.wasm dist/tribo_simd.web.mjs dist/tribo_mt.web.mjs tools/build_compat.mjs
	node tools/build_compat.mjs

# The package from `npm pack` in temporary projects (build/package/): see tests/package/.
test-package: wasm
	TRIBO_PREPACK_NO_BUILD=1 node --test --test-concurrency=1 tests/package/

# ---------------------------------------------------------------------------------------------
# libFuzzer over the C API (tests/fuzz/fuzz_api.c) with ASan + UBSan, clang from Debian (tools/setup.sh
# installs it). The committed seed corpus tests/fuzz/corpus is replayed first; new inputs go to
# build/fuzz/corpus, crashes to build/fuzz/ (add each fixed one to tests/fuzz/corpus).
# `make fuzz-smoke` (part of `make test`) runs 60 s, `make fuzz FUZZ_SECONDS=3600` as long as asked.
.PHONY: fuzz fuzz-smoke
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
# the thread pool in (-DTB_THREADS), every stage in chunks of one item (src/core/jobs.h): the
# snapshot twin runs another thread count and must step to the same bits (tests/fuzz/fuzz_api.c)
FUZZ_FLAGS := -std=c11 -Isrc -O1 -g -ffp-contract=off -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -fno-omit-frame-pointer -DTB_THREADS -pthread -DTB_FINE_CHUNKS
build/fuzz/fuzz_api: tests/fuzz/fuzz_api.c $(SRC) $(HDR)
	@mkdir -p build/fuzz/corpus
	$(FUZZ_CC) $(FUZZ_FLAGS) tests/fuzz/fuzz_api.c $(SRC) -lm -o $@

# FUZZ_RUN DIR: new inputs go to build/fuzz/DIR; the committed corpus is replayed first
FUZZ_RUN = cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 ./fuzz_api -timeout=20 -rss_limit_mb=2048 -max_len=4096 \
  -print_final_stats=1

# the smoke run's own corpus starts empty each time: it replays the committed corpus only, not
# what a local `make fuzz` gathered in build/fuzz/corpus (libFuzzer's first replay is not bounded
# by -max_total_time: thousands of gathered inputs took it past three minutes)
fuzz-smoke: build/fuzz/fuzz_api
	rm -rf build/fuzz/smoke && mkdir -p build/fuzz/smoke
	$(FUZZ_RUN) smoke ../../tests/fuzz/corpus -seed=1 -max_total_time=60

fuzz: build/fuzz/fuzz_api
	$(FUZZ_RUN) corpus ../../tests/fuzz/corpus -max_total_time=$(FUZZ_SECONDS)
