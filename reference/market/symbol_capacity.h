#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Symbol capacity]
// The most symbols one account holds. Per-symbol state lives in fixed-size
// arrays of this length (no heap on the device): the portfolio's holdings,
// each strategy's per-symbol state, the symbol sets (Note [Symbol sets]).
// The reference, which the CPU backend runs, is built for this capacity; a
// market with more symbols is refused when it is read.
//
// Note [Kernel variants]
// The device code is the reference's text compiled once per variant of
// spec/generator.json ("kernel_variants"), each with its own value of this
// constant (btforge-gen writes BTFORGE_SYMBOL_CAPACITY in its place): the
// first, single, holds one symbol and knows it (Note [Run shape] in
// generated/btforge_device.cuh: its symbol loops are straight code, its
// per-symbol state registers); the second, narrow, for up to 16 symbols, is
// the register kernel whose speed the figures of docs/PERFORMANCE.md before
// issue 30 measured, where the compiler keeps a one-word symbol set in a
// register and the short per-symbol arrays in cache-resident local memory;
// the last is built for this capacity. A run takes the smallest variant that
// holds its market and says which it ran.
// Per-symbol state of the large variant is local memory, which the GPU lays
// out interleaved by thread, so the lanes of a warp that read the same field
// of the same symbol (the symbol loops are uniform across a warp) touch
// consecutive addresses. Results never depend on the capacity: every loop
// runs over the market's symbols, not over the arrays.
BT_KERNEL inline constexpr int kMaxSymbols = 512;

// Bits in one word of a symbol set, and words in a set of kMaxSymbols.
BT_KERNEL inline constexpr int kSymbolWordBits = 32;
BT_KERNEL inline constexpr int kSymbolWords = (kMaxSymbols + kSymbolWordBits - 1) / kSymbolWordBits;

}  // namespace btforge
