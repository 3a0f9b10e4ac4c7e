// tribo/compat: the API of tribo with the single-threaded build's wasm and the worker inlined.
// `init()` always loads the 'simd' build in a page (`fallback` says so on isolated pages).
export * from './index.js';
