#pragma once

#include <bit>

#include "reference/kernel_marker.h"
#include "reference/market/symbol_capacity.h"

namespace btforge {

// Note [Symbol sets]
// A set of symbol indices, one bit each, kSymbolWords words of 32 bits:
// symbol s is bit s % 32 of word s / 32. Loops visit the set bits in
// ascending order, word by word, so that every effect keeps the symbol
// order. symbol_word() is 0 outright when the set has one word (the
// register kernel, Note [Kernel variants]): the compiler then keeps the set
// in one register, as the plain `unsigned` it replaced, instead of an array
// indexed at run time in local memory. Only the first symbol_words(n) words
// of a set over a market of n symbols are used (the others are never written
// or read: on the CPU, where the reference holds kMaxSymbols, a 4-symbol
// market would otherwise pay 16 words a visit); bits at or above n are never
// set.
struct BT_KERNEL SymbolSet {
    unsigned words[kSymbolWords];
};

// The word of symbol s, and its place in that word (s is never negative:
// unsigned arithmetic, so no sign fix-up).
BT_KERNEL inline int symbol_word(int s) {
    return kSymbolWords == 1 ? 0 : static_cast<int>(static_cast<unsigned>(s) / static_cast<unsigned>(kSymbolWordBits));
}

BT_KERNEL inline int symbol_place(int s) {
    return kSymbolWords == 1 ? s : static_cast<int>(static_cast<unsigned>(s) % static_cast<unsigned>(kSymbolWordBits));
}

BT_KERNEL inline unsigned symbol_bit(int s) { return 1u << symbol_place(s); }

// Whether `word` has a member at place b or above: the loop condition of a
// visit, `for (int b = 0; symbol_members_from(word, b) != 0; ++b)`. Shifting
// a 32-bit word by 32 is undefined, so b < 32 is tested where a word can be
// full; with fewer than 32 symbols the shift alone ends the loop (the
// register kernel's loops stay as they were).
BT_KERNEL inline int symbol_members_from(unsigned word, int b) {
    return (kMaxSymbols < kSymbolWordBits || b < kSymbolWordBits) && (word >> b) != 0u ? 1 : 0;
}

// The place of the lowest member of a nonzero word. A visit of only the
// members, in ascending order: `for (unsigned rest = word; rest != 0u;
// rest &= rest - 1u) { int b = lowest_member(rest); ... }`, one instruction a
// member where the loop of symbol_members_from tests every place below the
// highest member (measured: docs/PERFORMANCE.md, "Visits of set bits").
BT_KERNEL inline int lowest_member(unsigned word) { return std::countr_zero(word); }

// The words a set over a market of n symbols uses.
BT_KERNEL inline int symbol_words(int n_symbols) {
    return kSymbolWords == 1 ? 1 : (n_symbols + kSymbolWordBits - 1) / kSymbolWordBits;
}

BT_KERNEL inline void symbol_set_clear(SymbolSet& set, int n_symbols) {
    for (int w = 0; w < symbol_words(n_symbols); ++w) set.words[w] = 0u;
}

// The set {0, ..., n - 1}: every symbol of a market of n.
BT_KERNEL inline SymbolSet symbol_set_of_first(int n) {
    SymbolSet set;
    for (int w = 0; w < symbol_words(n); ++w) {
        int below = n - w * kSymbolWordBits;
        set.words[w] = below >= kSymbolWordBits ? ~0u : (below <= 0 ? 0u : (1u << below) - 1u);
    }
    return set;
}

BT_KERNEL inline int symbol_set_has(const SymbolSet& set, int s) {
    return (set.words[symbol_word(s)] & symbol_bit(s)) != 0u ? 1 : 0;
}

BT_KERNEL inline void symbol_set_add(SymbolSet& set, int s) { set.words[symbol_word(s)] |= symbol_bit(s); }

// Adds s when `member` is 1, nothing when 0, without a branch.
BT_KERNEL inline void symbol_set_add_if(SymbolSet& set, int s, int member) {
    set.words[symbol_word(s)] |= static_cast<unsigned>(member) << symbol_place(s);
}

BT_KERNEL inline void symbol_set_remove(SymbolSet& set, int s) { set.words[symbol_word(s)] &= ~symbol_bit(s); }

BT_KERNEL inline SymbolSet symbol_set_union(const SymbolSet& a, const SymbolSet& b, int n_symbols) {
    SymbolSet u;
    for (int w = 0; w < symbol_words(n_symbols); ++w) u.words[w] = a.words[w] | b.words[w];
    return u;
}

}  // namespace btforge
