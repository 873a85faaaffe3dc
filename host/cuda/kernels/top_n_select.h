#pragma once

// The top N of one chunk, selected on the device (SPEC §8): shared by the
// kernel (top_n_select.cu, nvcc) and the host (top_n_device.cpp: the same
// phases run sequentially, which is what the tests run without a GPU).
//
// Note [Top N on the device]
// Each block takes a tile of kTopNTile rows of the chunk and sorts (key, id,
// slot) triples of the tile in shared memory with a bitonic network; its
// first `keep` = min(N, tile) entries are written out with their whole rows.
// Every row of the chunk's top N is among the top N of its own tile, so the
// union of the blocks' winners holds the chunk's top N; the host offers
// those rows to the same TopN as the CPU sweep, whose comparator
// (ranks_before) decides the final order. The device only has to select a
// superset, but it does so with a strict total order, so its output does not
// depend on scheduling either.
//
// Note [Rank keys]
// ranks_before (host/engine/top_n.h) as unsigned comparisons. First the
// row's group, rank_tier (Note [Rows with few trades]: enough trades, few
// trades, non-finite metrics), the same function the host calls; then the
// metric, read as a double (an int field converted exactly), as a 64-bit key
// whose ascending order is the better-first order, NaN last:
//   - every NaN -> all ones (NaNs tie with each other, larger than any number);
//   - -0.0 -> +0.0 (ranks_before compares with ==, so they tie);
//   - the IEEE bits made order-preserving (negative: all bits flipped;
//     positive: sign bit set), then flipped again when higher is better.
// The largest non-NaN key is 0xFFF0000000000000 (+inf, or -inf when higher
// is better), so NaN stays strictly last. A row with non-finite metrics
// (Note [Rows with non-finite metrics]) is in the last group and gets the
// NaN key whatever its ranked value, so that such rows tie up to their ids
// as ranks_before has them, and is counted. Equal (group, key) fall back to
// the combination id, then to the row's slot in the tile, which is unique:
// the order is total even for padding (last group, NaN key, the largest id
// and slot) and repeated ids.

#include <cstring>  // the host pass of top_n_double_bits, nvcc's included

#include "generated/btforge_layout.h"
#include "host/engine/rank_tier.h"
#include "reference/metrics/metrics.h"

#ifdef __CUDACC__
#define BTFORGE_TOP_N_HD __host__ __device__
#else
#define BTFORGE_TOP_N_HD
#endif

namespace btforge::device {

inline constexpr unsigned kTopNThreads = 512;
inline constexpr unsigned kTopNTile = 2 * kTopNThreads;  // one compare-exchange per thread and step
inline constexpr unsigned long long kNanRankKey = ~0ull;
inline constexpr unsigned kPaddingSlot = kTopNTile;      // after every real slot

// The kernel's only parameter, passed by value like SweepLaunch.
struct TopNSelectLaunch {
    const Metrics* rows;            // [count]: the chunk's rows
    const unsigned long long* ids;  // [count]: their combination ids
    unsigned long long count;
    unsigned long long* out_ids;    // [blocks * keep]
    Metrics* out_rows;              // [blocks * keep]
    unsigned metric_offset;         // byte offset of the ranked field in Metrics
    int metric_integral;            // 1: the field is an int, 0: a double
    int higher_is_better;
    unsigned keep;                  // min(N, kTopNTile), at least 1
    int min_trades;                 // Note [Rows with few trades]
    unsigned long long* invalid_rows;  // += the chunk's rows with non-finite metrics (may be null)
};

struct TopNSelectShared {
    unsigned char tier[kTopNTile];  // RankTier
    unsigned long long key[kTopNTile];
    unsigned long long id[kTopNTile];
    unsigned slot[kTopNTile];
};

BTFORGE_TOP_N_HD inline unsigned long long top_n_double_bits(double x) {
#ifdef __CUDA_ARCH__
    return static_cast<unsigned long long>(__double_as_longlong(x));
#else
    unsigned long long bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
#endif
}

// Note [Rank keys].
BTFORGE_TOP_N_HD inline unsigned long long top_n_rank_key(double x, bool higher_is_better) {
    if (x != x) return kNanRankKey;
    if (x == 0.0) x = 0.0;
    unsigned long long bits = top_n_double_bits(x);
    bits = (bits >> 63) != 0 ? ~bits : bits | (1ull << 63);
    return higher_is_better ? ~bits : bits;
}

BTFORGE_TOP_N_HD inline double top_n_read_metric(const Metrics& row, unsigned offset, bool integral) {
    const unsigned char* field = reinterpret_cast<const unsigned char*>(&row) + offset;
    if (integral) return static_cast<double>(*reinterpret_cast<const int*>(field));
    return *reinterpret_cast<const double*>(field);
}

// The key of a whole row: Note [Rank keys], and kNanRankKey for a row with
// non-finite metrics. A valid row never gets kNanRankKey, and an invalid
// one always does, so the key alone tells which rows are invalid.
BTFORGE_TOP_N_HD inline unsigned long long top_n_row_key(const Metrics& row, unsigned offset, bool integral,
                                                         bool higher_is_better) {
    if (!btforge::metrics_are_finite(row)) return kNanRankKey;
    return top_n_rank_key(top_n_read_metric(row, offset, integral), higher_is_better);
}

// The row's group: Note [Rows with few trades].
BTFORGE_TOP_N_HD inline unsigned char top_n_row_tier(const Metrics& row, int min_trades) {
    return static_cast<unsigned char>(btforge::rank_tier(row, min_trades));
}

inline constexpr unsigned char kInvalidTier = static_cast<unsigned char>(btforge::RankTier::Invalid);

// (tier, key, id, slot) lexicographically: Note [Rank keys].
BTFORGE_TOP_N_HD inline bool top_n_entry_before(unsigned char tier_a, unsigned long long key_a,
                                                unsigned long long id_a, unsigned slot_a, unsigned char tier_b,
                                                unsigned long long key_b, unsigned long long id_b,
                                                unsigned slot_b) {
    if (tier_a != tier_b) return tier_a < tier_b;
    if (key_a != key_b) return key_a < key_b;
    if (id_a != id_b) return id_a < id_b;
    return slot_a < slot_b;
}

BTFORGE_TOP_N_HD inline unsigned long long top_n_tile_begin(unsigned block) {
    return static_cast<unsigned long long>(block) * kTopNTile;
}

// The three phases of a block, each the work of thread `t` between two
// barriers: load, then one step per (k, j) of the bitonic network, then write.
BTFORGE_TOP_N_HD inline void top_n_load(const TopNSelectLaunch& launch, TopNSelectShared& s, unsigned block,
                                        unsigned t) {
    const unsigned long long begin = top_n_tile_begin(block);
    unsigned long long invalid = 0;
    for (unsigned e = t; e < kTopNTile; e += kTopNThreads) {
        const unsigned long long row = begin + e;
        if (row < launch.count) {
            s.tier[e] = top_n_row_tier(launch.rows[row], launch.min_trades);
            s.key[e] = top_n_row_key(launch.rows[row], launch.metric_offset, launch.metric_integral != 0,
                                     launch.higher_is_better != 0);
            invalid += s.tier[e] == kInvalidTier ? 1 : 0;
            s.id[e] = launch.ids[row];
            s.slot[e] = e;
        } else {
            s.tier[e] = kInvalidTier;
            s.key[e] = kNanRankKey;
            s.id[e] = ~0ull;
            s.slot[e] = kPaddingSlot;
        }
    }
    if (invalid != 0 && launch.invalid_rows != nullptr) {
#ifdef __CUDA_ARCH__
        atomicAdd(launch.invalid_rows, invalid);
#else
        *launch.invalid_rows += invalid;  // the host pass runs the threads one after the other
#endif
    }
}

// One compare-exchange of the bitonic sort (k: size of the sequences being
// merged, j: distance of the pair), ascending overall.
BTFORGE_TOP_N_HD inline void top_n_sort_step(TopNSelectShared& s, unsigned k, unsigned j, unsigned t) {
    const unsigned i = 2 * j * (t / j) + t % j;
    const unsigned l = i + j;
    const bool ascending = (i & k) == 0;
    const bool l_first =
        top_n_entry_before(s.tier[l], s.key[l], s.id[l], s.slot[l], s.tier[i], s.key[i], s.id[i], s.slot[i]);
    if (l_first == ascending) {
        const unsigned char tier = s.tier[i];
        const unsigned long long key = s.key[i];
        const unsigned long long id = s.id[i];
        const unsigned slot = s.slot[i];
        s.tier[i] = s.tier[l];
        s.key[i] = s.key[l];
        s.id[i] = s.id[l];
        s.slot[i] = s.slot[l];
        s.tier[l] = tier;
        s.key[l] = key;
        s.id[l] = id;
        s.slot[l] = slot;
    }
}

// The block's first `keep` entries, with their rows; padding is not written
// (the host knows how many of a block's entries are real:
// top_n_block_winners).
BTFORGE_TOP_N_HD inline void top_n_write(const TopNSelectLaunch& launch, const TopNSelectShared& s, unsigned block,
                                         unsigned t) {
    const unsigned long long begin = top_n_tile_begin(block);
    for (unsigned e = t; e < launch.keep; e += kTopNThreads) {
        if (s.slot[e] == kPaddingSlot) continue;
        const unsigned long long out = static_cast<unsigned long long>(block) * launch.keep + e;
        launch.out_ids[out] = s.id[e];
        launch.out_rows[out] = launch.rows[begin + s.slot[e]];
    }
}

// How many of block `block`'s `keep` outputs are real rows.
BTFORGE_TOP_N_HD inline unsigned top_n_block_winners(unsigned long long count, unsigned keep, unsigned block) {
    const unsigned long long begin = top_n_tile_begin(block);
    if (begin >= count) return 0;
    const unsigned long long rows = count - begin;
    return rows < keep ? static_cast<unsigned>(rows) : keep;
}

BTFORGE_TOP_N_HD inline unsigned top_n_blocks(unsigned long long count) {
    return static_cast<unsigned>((count + kTopNTile - 1) / kTopNTile);
}

}  // namespace btforge::device
