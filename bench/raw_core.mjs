// The raw wasm-bindgen exports (each returns the core's JSON reply, as pkg/api.mjs receives it),
// to split our time: an instance of its own, seeded like the API's, of the test build
// (scripts/build-testing.sh), which has the shipped exports and the full-reply twins the
// package no longer ships.
export { core } from '../js-tests/testing-core.mjs';
